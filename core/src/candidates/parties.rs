//! Parties: who sells and who buys, found from labels, forms and the page layout.
//!
//! Every place that may name a party becomes a [`PartyCandidate`] with the role its source
//! suggests; [`crate::fields`] chooses among them.
//!
//! - Labelled sections: a party label (`Verkäufer`, `Bill to:`, `Nabywca:`, `Исполнитель:` ...)
//!   that stands alone in its segment, with the text under it in the label's column, after it on
//!   the same line (`Seller: ACME Ltd`), or in the segment to its right with continuation lines
//!   aligned to it (`Исполнитель:   ООО «…»` / `   г. Москва, …`).
//! - Forms: a labelled section whose rows are `Key:  value` pairs (`Name:`, `Anschrift:`,
//!   `Nummer:` ...); each value segment belongs to the nearest key row, so a two-line name cell
//!   whose key sits on its second line is still one name.
//! - Letterhead: the most prominent company-like line at the top of the first page (seller).
//! - Sender line: `Firma · Straße 1 · 12345 Ort` in small print above the address window
//!   (seller), whose first part is the name.
//! - Address window: an unlabelled block with a postcode line in the upper half of the first page
//!   (buyer).
//! - Id block: the block around a tax id that no label assigns (footers; seller).

use super::dates;
use super::ids;
use super::labels::{self, LabelKey};
use crate::layout::{self, Block, BlockParams, Segment};
use crate::types::{BBox, CleanDocument, Line, Span};
use regex::Regex;
use std::sync::LazyLock;

/// Where a party candidate was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PartySource {
    /// Under / after a party label.
    Labelled,
    /// `Key: value` rows of a labelled section.
    Form,
    /// The top of the first page.
    Letterhead,
    /// The small sender line above an address window.
    SenderLine,
    /// An unlabelled address block in the upper half of the first page.
    AddressWindow,
    /// The block around an unassigned tax id.
    IdBlock,
    /// Any other short text block of the first page or the foot of the last page (footer
    /// register columns, right-hand letterheads, unlabelled party blocks), in variants with the
    /// name on one line or joined over two; only the learned scorer chooses these.
    Block,
}

impl PartySource {
    /// Every source, in a fixed order (the learned scorer's one-hot columns).
    pub const ALL: [PartySource; 7] = [
        PartySource::Labelled,
        PartySource::Form,
        PartySource::Letterhead,
        PartySource::SenderLine,
        PartySource::AddressWindow,
        PartySource::IdBlock,
        PartySource::Block,
    ];
}

/// One place that may name a party.
#[derive(Debug, Clone, PartialEq)]
pub struct PartyCandidate {
    /// Seller, Buyer or Consignee: the role the source suggests.
    pub role: LabelKey,
    /// Where it was found.
    pub source: PartySource,
    /// The name (cleaned text, where it was printed).
    pub name: Option<(String, Span)>,
    /// Address lines.
    pub address: Vec<(String, Span)>,
    /// Every segment of the party's area: ids, phones and e-mails inside belong to it.
    pub region: Vec<Span>,
    /// Line of the label, for labelled sources.
    pub label_line: Option<usize>,
}

impl PartyCandidate {
    /// Whether the name reads as a company's (a legal form, an all-capital trade name ...).
    pub fn is_company(&self) -> bool {
        self.name.as_ref().is_some_and(|(n, _)| is_company_like(n))
    }

    /// Whether the party's whole area is one line printed as `name · street · town` without
    /// a label: a sender's return address or a register line, the way an issuer prints itself,
    /// never an addressee's block.
    pub fn is_sender_line(&self) -> bool {
        self.label_line.is_none()
            && matches!(&self.region[..], [line] if sender_parts(&line.text).is_some())
    }

    /// Whether a span lies inside the party's area.
    pub fn contains(&self, span: &Span) -> bool {
        self.region
            .iter()
            .any(|r| r.line == span.line && span.start < r.end + 1 && span.end + 1 > r.start)
    }
    /// Union of the region's boxes on its first page.
    pub fn bbox(&self) -> Option<BBox> {
        let first = self.region.first()?;
        Some(
            self.region
                .iter()
                .filter(|s| s.page == first.page)
                .fold(first.bbox, |b, s| b.union(&s.bbox)),
        )
    }
}

/// Legal forms of companies in many countries, as normalised words (lower case, without dots):
/// `GmbH`, `B.V.`, `S.r.l.`, `Sp. z o.o.` (`sp` + `z` + `oo`), `ТОВ`, `ООО` ...
pub const LEGAL_FORMS: &[&str] = &[
    "gmbh", "ag", "kg", "ohg", "ug", "mbh", "kgaa", "ek", "ev", "eg", "se", "ltd", "limited",
    "plc", "llc", "llp", "lp", "inc", "corp", "pty", "bv", "nv", "vof", "cv", "bvba", "sprl",
    "sarl", "sas", "sasu", "sa", "eurl", "snc", "sca", "srl", "spa", "sapa", "snc", "sl", "slu",
    "lda", "sro", "as", "spol", "uab", "ab", "sia", "ou", "oü", "aps", "oy", "oyj", "asa", "hf",
    "kft", "zrt", "nyrt", "bt", "doo", "dd", "ad", "ood", "eood", "sdn", "bhd", "berhad", "kk",
    "ооо", "оао", "зао", "ао", "пао", "ип", "тов", "фоп", "пп", "пат", "прат", "ват", "тзов", "ад",
    "оод", "еоод", "ltda", "cia", "sc", "spzoo", "hb", "kb", "ky", "tmi", "ks", "vos", "pfa",
    // Danish and Norwegian forms keep their slash (`A/S`, `I/S`, `K/S`, `P/S`).
    "a/s", "i/s", "k/s", "p/s", "amba",
    // Sole traders of Latvia and Estonia (`IK`, `FIE`); Estonia's non-profit, commercial and
    // limited partnerships and Lithuania's public body (`MTÜ`, `TÜ`, `UÜ`, `VšĮ`); Norway's
    // partnership and sole trader (`ANS`, `ENK`); Belgium's associations (`VZW`, `ASBL`).
    "ik", "fie", "mtü", "tü", "uü", "všį", "ans", "enk", "vzw", "asbl",
    // Austria's `e.U.`, Belgium's `CommV`, Spain's `S.Coop.` and `S.L.L.`, Italy's `S.r.l.s.`,
    // France's `SCI`, Denmark's `IVS`, Hungary's `Kkt.`, Lithuania's `MB` and `IĮ`
    // (individuali įmonė), Ukraine's `АТ`.
    "eu", "commv", "scoop", "sll", "srls", "sci", "ivs", "kkt", "mb", "iį", "ат",
    // Ireland's `Teoranta`, `DAC` and `CLG` (not its short `Teo.`: `TEO` is a surname).
    "teoranta", "dac", "clg",
];

/// A reading of a word that is a legal form ([`LEGAL_FORMS`]).
fn known_form(read: String) -> Option<String> {
    LEGAL_FORMS.contains(&read.as_str()).then_some(read)
}

/// Normalised words of a name: lower case, dots and brackets dropped. A slash form whose `I`
/// OCR read as its look-alike (`l/S`, `1/S` for Denmark's `I/S`) is the form, and so is a dotted
/// form whose letters it read as digits (`5.r.0.`) or whose `l` it read as `I` (`S.r.I.s.`).
pub fn name_words(text: &str) -> Vec<String> {
    text.split(|c: char| c.is_whitespace() || matches!(c, ',' | ';' | '«' | '»' | '"' | '“'))
        .map(|raw| {
            let mut w = raw
                .chars()
                .filter(|c| !matches!(c, '.' | '(' | ')' | '\'' | '`' | '„'))
                .flat_map(char::to_lowercase)
                .collect::<String>();
            if let Some(rest) = w.strip_prefix(['l', '1', '|'])
                && rest.len() == 2
                && rest.starts_with('/')
                && rest.ends_with(|c: char| c.is_ascii_alphabetic())
            {
                w = format!("i{rest}");
            }
            // A dotted form OCR misread: its letters as look-alike digits (`5.r.0.` for
            // `s.r.o.`), its `l` as a capital `I` (`S.r.I.s.` for `S.r.l.s.`).
            if raw.contains('.') {
                if w.chars().any(char::is_alphabetic)
                    && w.chars().any(|c| matches!(c, '0' | '1' | '5'))
                    && let Some(form) = known_form(
                        w.chars()
                            .map(|c| match c {
                                '0' => 'o',
                                '1' => 'l',
                                '5' => 's',
                                c => c,
                            })
                            .collect(),
                    )
                {
                    w = form;
                }
                if raw.contains('I')
                    && let Some(form) = known_form(w.replace('i', "l"))
                {
                    w = form;
                }
            }
            w
        })
        .filter(|w| !w.is_empty())
        .collect()
}

/// Legal forms printed as separate letters (normalised words): `Sp. j.`, `Sp. k.`, `Sp. p.`,
/// `s. r. o.`.
const SPACED_FORMS: &[&[&str]] = &[&["sp", "j"], &["sp", "k"], &["sp", "p"], &["s", "r", "o"]];

/// Whether `words` (if any) are exactly `form`.
fn same_words(words: Option<&[String]>, form: &[&str]) -> bool {
    words.is_some_and(|w| w.iter().map(String::as_str).eq(form.iter().copied()))
}

/// Whether a name holds a legal-form word (`Sp. z o.o.` read as `sp`, `z`, `oo`).
pub fn has_legal_form(text: &str) -> bool {
    let w = name_words(text);
    w.iter().enumerate().any(|(i, x)| {
        LEGAL_FORMS.contains(&x.as_str())
            || (x == "sp" && w.get(i + 1).is_some_and(|n| n == "z"))
            || (x == "s" && w.get(i + 1).is_some_and(|n| n == "a" || n == "l"))
            || SPACED_FORMS
                .iter()
                .any(|f| same_words(w.get(i..i + f.len()), f))
    })
}

/// Whether a name ends in a legal form (`Catering LLP`, `El HB`, `S.A.`, `Sp. z o.o.`,
/// `Sp. k.`).
pub fn ends_with_legal_form(text: &str) -> bool {
    let w = name_words(text);
    spaced_form_at_end(&w)
        || w.last()
            .is_some_and(|x| LEGAL_FORMS.contains(&x.as_str()) || x == "oo")
}

/// Whether a name ends in a legal form printed as separate letters ([`SPACED_FORMS`]).
fn ends_with_spaced_form(text: &str) -> bool {
    spaced_form_at_end(&name_words(text))
}

/// Whether name words (`name_words`) end in one of the [`SPACED_FORMS`].
fn spaced_form_at_end(w: &[String]) -> bool {
    SPACED_FORMS
        .iter()
        .any(|f| same_words(w.len().checked_sub(f.len()).map(|s| &w[s..]), f))
}

static LEGAL: &[&str] = &[
    "gmbh",
    "ag",
    "kg",
    "ohg",
    "gbr",
    "ug",
    "mbh",
    "kgaa",
    "ek",
    "sarl",
    "sas",
    "sa",
    "sasu",
    "eurl",
    "snc",
    "sp",
    "zoo",
    "ооо",
    "оао",
    "зао",
    "ао",
    "пао",
    "ип",
    "тов",
    "фоп",
    "пп",
    "пат",
    "прат",
    "ват",
    "тзов",
    "sdn",
    "bhd",
    "berhad",
    "ltd",
    "limited",
    "inc",
    "llc",
    "plc",
    "corp",
    "corporation",
    "co",
    "company",
    "enterprise",
    "enterprises",
    "trading",
    "store",
    "restaurant",
    "mart",
    "supermarket",
    "hardware",
    "stationery",
    "bakery",
    "cafe",
    "kedai",
    "pharmacy",
    "services",
    "industries",
    "holdings",
    "group",
    "gmbh&co",
    "bv",
    "nv",
    "oy",
    "ab",
    "as",
    "srl",
    "spa",
    "s.a",
];

/// Whether a line reads like a company name (legal-form or trade words).
pub fn is_company_like(text: &str) -> bool {
    // A legal form as the last word (`Popescu PFA`, `Catering LLP`); inside a line the short
    // ones are often other words (`JLN BT 3`).
    if ends_with_legal_form(text) {
        return true;
    }
    // A legal form before the name (`SIA Baltija`, `IK "Transports Balodis"`, `UAB Vilnius
    // Prekyba`): a form of three letters or more, or any form before a quoted name.
    let nw = name_words(text);
    if nw.len() >= 2
        && LEGAL_FORMS.contains(&nw[0].as_str())
        && (nw[0].chars().count() >= 3 || text.contains(['"', '«', '„', '“']))
    {
        return true;
    }
    let words = labels::norm_words(text);
    words.iter().enumerate().any(|(i, w)| {
        LEGAL.contains(&w.text.as_str())
            // OCR: `SDN BND`, `SDN BHO`.
            || w.text == "sdn" && words.get(i + 1).is_some_and(|n| n.text.len() == 3 && n.text.starts_with('b'))
    })
}

static POSTCODE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"(?:^|\s)(?:[A-Z]{1,2}[- ]?)?[0-9]{2}-?[0-9]{3}\s+\p{Lu}|\b[0-9]{4,6}\s*\p{Lu}\p{L}+|",
        // Portugal `3000-150 Coimbra`; Sweden, Czechia, Slovakia, Greece `702 10 Örebro`;
        // the Netherlands `3511 AX Utrecht`.
        r"\b[0-9]{4}-[0-9]{3}\s+\p{Lu}|\b[0-9]{3}\s[0-9]{2}\s+\p{Lu}\p{Ll}|",
        r"\b[0-9]{4}\s?[A-Z]{2}\s+\p{Lu}\p{Ll}|",
        // Six-digit postcodes before a Cyrillic town marker (`620014, г. Екатеринбург`), and
        // the marker itself (`г. Москва`, `м. Львів`).
        r"(?:^|[\s,])(?:г|м|с|смт|пгт)\.\s?\p{Lu}\p{Ll}",
    ))
    .expect("postcode regex")
});

/// Street words both the address test and the house-number test know (regex alternatives).
const STREET_WORDS: &str = concat!(
    r"stra(ß|ss)e|\bstr\.|weg\b|platz\b|allee\b|gasse\b|\bstreet\b|\broad\b|\bavenue\b|",
    r"\blane\b|\bjalan\b|\bjln\b|\btaman\b|\blorong\b|\brue\b|\bboulevard\b|\bchemin\b|",
    r"\bul\.|\bulica\b|\baleja\b|вул\.|вулиця|\bул\.|улица|",
    // Street words of more languages; as the end of a compound before a house number
    // (`Drottninggatan 133`, `Søndergade 31`, `Hämeenkatu 63`, `Kaiserring 5`; `Catering LLP` is
    // no street).
    r"\bcalle\b|\bavenida\b|\bavda\.|\bpaseo\b|\brua\b|\bviale\b|\bpiazza\b|\bcorso\b|",
    r"\bstraat\b|\bgatan\b|\bvej\b|\butca\b|\bútca\b|\bnáměstí\b|\bnámestie\b|",
    r"\p{L}(?:straat|gatan|gade|vej|vägen|katu|ring|damm)\s+[0-9]|",
    r"\biela\b|\bgatvė\b|\bstrada\b|\btänav\b|\bcalea\b|\bbulevardul\b|\bpiața\b|\bpiata\b|",
    r"\bsoseaua\b|\bșoseaua\b|\bbd\.|\bal\.\s|",
    // More compounds before a house number (`Keizersgracht 12`, `Mannerheimintie 5`,
    // `Karl Johans gate 3`, `Stortorget 2`) and street words of hu, cs, sk, lt, lv, et, sv, da,
    // pt, es, ca, ro, fr, it (`Váci út`, `Vilniaus g. 12`, `Pärnu mnt`, `Travessa do Carmo`).
    r"\p{L}(?:laan|tie|gracht|kade|plein|singel|torget|torg|väg|veien|kuja|tee)\s+[0-9]|",
    r"\bgate\s+[0-9]|\bút\b|körút|\btér\b|rakpart|třída|nábřeží|nábrežie|\bnám\.|",
    r"\bg\.\s*[0-9]|\bpr\.\s*[0-9]|bulvāris|\bmnt\b|\bpst\b|\bgränd\b|\bplads\b|",
    r"\btravessa\b|\bpraça\b|\bcarrer\b|\baleea\b|\bsplaiul\b|\ballée\b|\bquai\b|",
    r"\bimpasse\b|\bvicolo\b"
);

/// Whether a line looks like part of a postal address (street number, postcode + city).
pub fn is_address_like(text: &str) -> bool {
    static STREET: LazyLock<Regex> = LazyLock::new(|| {
        let more = concat!(
            r"\bst\.|\brd\b\.?|\bave\b|\bbd\b|\bplace\b|просп|пр-т|\bпр\.|",
            r"буд\.|\bд\.\s*[0-9]|\bno\.\s*[0-9]|\blot\s*(?:[a-z]{1,4}\s*)?[0-9]|\bsuite\b|\bfloor\b|\bbox\b|postfach|",
            r"[0-9]+[a-z]?,\s"
        );
        Regex::new(&format!("(?i)({STREET_WORDS}|{more})")).expect("street regex")
    });
    // `Speicherstadt 12`, `Hof 3a`: a name and a house number. The name's length is checked in
    // code: a bounded repetition of a Unicode class compiles into one copy of the class per
    // repetition (20 ms at start-up for `{2,40}`). The split is unique (the name holds no digits),
    // so the check is exactly the bounded pattern.
    static HOUSE: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"^\p{L}([\p{L}.\- ]+)\s[0-9]{1,4}\s?[a-zA-Z]?\.?$").expect("house number regex")
    });
    // `21 Market Row`: a house number and a short street name (length checked as above).
    static HOUSE_FIRST: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"^[0-9]{1,4}[a-zA-Z]?,?\s\p{L}([\p{L}.'\- ]+)$").expect("house regex")
    });
    let group_len_within = |re: &Regex, t: &str, range: std::ops::RangeInclusive<usize>| {
        re.captures(t)
            .and_then(|c| c.get(1))
            .is_some_and(|g| range.contains(&g.as_str().chars().count()))
    };
    // British and similar postcodes (`NR2 1NB`, `E14 5AB`, `SW1A 1AA`).
    static UK_POSTCODE: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"\b[A-Z]{1,2}[0-9][A-Z0-9]?\s[0-9][A-Z]{2}\b").expect("uk postcode regex")
    });
    // `Via Garibaldi 90`, `C/ Alcalá, 91`, `Av. da Liberdade`: short street words that are
    // ordinary words elsewhere (`via e-mail`), so only before a capitalised name.
    static ROMANCE_STREET: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(concat!(
            r"(?:^|\s)(?:Via|Largo|Plaza|Av\.|C/)",
            r"(?:\s(?:da|de|del|della|di|do|dos|das|la|las|los))?\s?\p{Lu}"
        ))
        .expect("street regex")
    });
    let t = text.trim();
    let no_labels = || labels::find_labels(t).is_empty();
    POSTCODE.is_match(t)
        || ROMANCE_STREET.is_match(t)
        || STREET.is_match(t)
        || UK_POSTCODE.is_match(t)
        || (group_len_within(&HOUSE, t, 2..=40) && no_labels())
        || (group_len_within(&HOUSE_FIRST, t, 2..=30)
            && labels::norm_words(t).len() <= 4
            && no_labels())
}

/// A street word (`Jalan`, `Street`, `Road`, `ul.`, `вул.` ...): with one, a line that opens
/// with `No.` is a house number (`NO. 53, JALAN BESAR`, `No 5, Main Road`), not a document
/// number.
pub(crate) fn has_street_word(text: &str) -> bool {
    static STREET_WORD: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(&format!(r"(?i)({STREET_WORDS}|\bvia\b|\bstr\b)")).expect("street word regex")
    });
    STREET_WORD.is_match(text)
}

fn is_id_line(text: &str) -> bool {
    labels::find_labels(text).iter().any(|h| {
        h.word == 0
            && !(h.key == LabelKey::NumberGeneric && has_street_word(text))
            && (h.key.is_tax_id()
                || matches!(
                    h.key,
                    LabelKey::Number
                        | LabelKey::NumberGeneric
                        | LabelKey::CustomerNumber
                        | LabelKey::Phone
                        | LabelKey::Email
                        | LabelKey::Iban
                        | LabelKey::Bic
                        | LabelKey::Bank
                        | LabelKey::Account
                        | LabelKey::Date
                        | LabelKey::DueDate
                        | LabelKey::Contract
                        | LabelKey::Order
                        | LabelKey::Corrects
                ))
    }) || text.contains('@')
        || text.to_lowercase().starts_with("www")
        || holds_only_an_id(text)
}

/// A VAT id of its country's shape (its checksum holding where it has one) or an IBAN, with at
/// most a short label beside it (`BTW BE0305854361`, `SE-nr. DK26535859`,
/// `AT45 9794 3253 3009 4455`): an id line whatever the label's wording.
fn holds_only_an_id(text: &str) -> bool {
    let mut found = ids::find_vat_ids(text);
    found.extend(ids::find_ibans(text));
    found.iter().any(|m| {
        m.checksum_valid != Some(false) && {
            let rest = format!("{} {}", &text[..m.start], &text[m.end..]);
            labels::norm_words(&rest).len() <= 2
        }
    })
}

/// A number of eight digits or more in a row (an account or an id, never part of an address).
fn long_number(text: &str) -> bool {
    text.split(|c: char| !c.is_ascii_digit())
        .any(|run| run.len() >= 8)
}

/// A line holding an id or contact of a party (tax ids, bank details, phone, e-mail).
fn is_party_id_line(text: &str) -> bool {
    labels::find_labels(text).iter().any(|h| {
        h.word == 0
            && (h.key.is_tax_id()
                || matches!(
                    h.key,
                    LabelKey::Phone
                        | LabelKey::Email
                        | LabelKey::Iban
                        | LabelKey::Bic
                        | LabelKey::Bank
                        | LabelKey::Account
                ))
    }) || text.contains('@')
}

/// Whether a label stands alone: followed by `:`, a wide gap or the end of the line (so that
/// `Lieferant GmbH` is a name, not the label `Lieferant`).
fn stands_alone(text: &str, end: usize) -> bool {
    let mut rest = &text[end..];
    // The hook of `ľ`, `ť`, `ď` read apart by OCR, an apostrophe between the label and its
    // colon (`Zhotovitel':` for `Zhotoviteľ:`).
    if let Some(r) = rest.strip_prefix(['\'', '’', '`', '´'])
        && r.starts_with(':')
    {
        rest = r;
    }
    let t = rest.trim_start_matches(' ');
    t.is_empty()
        || t.starts_with([':', '/', '|'])
        || rest.starts_with("  ")
        || rest.starts_with(" (")
}

fn meaningful(text: &str) -> bool {
    let letters = text.chars().filter(|c| c.is_alphabetic()).count();
    if letters < 3 {
        return false;
    }
    let hits = labels::find_labels(text);
    // Column words may be part of a name (`Preis`, `Service`); a tax word is not, also where
    // the word before it makes the phrase a column's (`с НДС`: with VAT, the gross column).
    let tax_column = |h: &labels::LabelHit| {
        h.key.is_column()
            && labels::norm_words(&text[h.start..h.end])
                .last()
                .is_some_and(|w| {
                    labels::has_label(&text[h.start + w.start..h.start + w.end], LabelKey::Vat)
                })
    };
    let label_words: usize = hits
        .iter()
        .filter(|h| {
            !h.key.is_party() && (!h.key.is_column() || tax_column(h)) && h.key != LabelKey::Name
        })
        .map(|h| h.words)
        .sum();
    let words = labels::norm_words(text).len();
    label_words * 2 < words.max(1) && !is_id_line(text)
}

/// Header and footer print of document generators and forms (`Stylesheet-Version 2.0`,
/// `(c) AWV e.V. 2020`, `Seite 1 von 2`), and title lines: never a party name.
fn boilerplate(text: &str) -> bool {
    let lower = text.to_lowercase();
    if lower.contains("(c)") || lower.contains('©') {
        return true;
    }
    let words = labels::norm_words(text);
    words.iter().any(|w| {
        w.text.ends_with("version")
            || matches!(
                w.text.as_str(),
                "copyright" | "stylesheet" | "seite" | "page" | "strona" | "сторінка" | "страница"
            )
    }) || labels::find_labels(text)
        .first()
        .is_some_and(|h| h.word == 0 && h.key == LabelKey::Title)
        || super::titles::title_phrase(text)
}

/// A sentence of running text (`Vielen Dank für Ihren Auftrag.`), not a name.
fn sentence_like(text: &str) -> bool {
    let words = labels::norm_words(text).len();
    let t = text.trim_end();
    // The dot of an abbreviation (`Alpha Drukkerij V.O.F.`, `Rossi S.p.A.`, `Kovács Kft.`)
    // ends a company name, not a sentence.
    let last = t.split_whitespace().last().unwrap_or("");
    let form: String = last
        .chars()
        .filter(|c| *c != '.')
        .collect::<String>()
        .to_lowercase();
    // Two short dotted words end a legal form too (`Sp. k.`, `Sp. j.`, `s. r. o.`).
    let short_dotted =
        |w: &str| w.ends_with('.') && w.chars().filter(|c| c.is_alphabetic()).count() <= 3;
    let mut tail = t.split_whitespace().rev();
    let dotted_pair =
        tail.next().is_some_and(short_dotted) && tail.next().is_some_and(short_dotted);
    let abbreviation = t.ends_with('.')
        && (last.trim_end_matches('.').contains('.')
            || LEGAL_FORMS.contains(&form.as_str())
            || dotted_pair);
    words >= 9 || (words >= 4 && t.ends_with(['.', '!']) && !abbreviation && !text.contains("  "))
}

/// The seller name of the first page's letterhead: the most prominent company-like line at the
/// top (first segment of its line; the first part of a `name - street - town` line).
pub fn letterhead(doc: &CleanDocument) -> Option<Span> {
    let first = doc.pages.first()?;
    let lines: Vec<&Line> = doc.lines.iter().filter(|l| l.page == first.page).collect();
    let limit = first.height * 0.3;
    let mut heights: Vec<f32> = lines.iter().map(|l| l.bbox.height()).collect();
    heights.sort_by(f32::total_cmp);
    let median = heights
        .get(heights.len() / 2)
        .copied()
        .unwrap_or(1.0)
        .max(1e-3);
    let mut best: Option<(f32, &Line, usize, usize)> = None;
    for (rank, l) in lines.iter().enumerate() {
        if l.bbox.y0 > limit && rank >= 3 {
            break;
        }
        // Only the first column segment of the line (letterheads sit left or centred).
        let mut seg_end = l.text.find("  ").unwrap_or(l.text.len());
        // `Firma GmbH - Straße 1 - 12345 Ort`: the name is the first part.
        if let Some(parts) = sender_parts(&l.text[..seg_end]) {
            seg_end = parts[0].1;
        }
        let text = l.text[..seg_end].trim_end();
        // Keys of `Key: value` rows and party labels are not names.
        let key = text.ends_with(':') || l.text[seg_end..].trim_start().starts_with(':');
        let party = labels::find_labels(text)
            .first()
            .is_some_and(|h| h.word == 0 && h.key.is_party() && stands_alone(text, h.end));
        // A name right under a key of its own (`Kunde:`, a label of any language) heads a
        // labelled block, and one right under a sender line (`Firma · Straße 1 · Ort`) is the
        // addressee in a window: neither is the letterhead.
        let above_head = rank
            .checked_sub(1)
            .map(|r| lines[r])
            .filter(|above| {
                l.bbox.y0 - above.bbox.y1 < 1.5 * l.bbox.height()
                    && above.bbox.x0 < l.bbox.x1
                    && l.bbox.x0 < above.bbox.x1
            })
            .map(|above| {
                above.text[..above.text.find("  ").unwrap_or(above.text.len())].trim_end()
            });
        let under_key = above_head.is_some_and(|head| {
            head.ends_with(':')
                && labels::norm_words(head).len() <= 3
                && !head.chars().any(|c| c.is_ascii_digit())
        });
        let under_sender = above_head.is_some_and(|head| sender_parts(head).is_some());
        if !meaningful(text)
            || boilerplate(text)
            || key
            || party
            || under_key
            || under_sender
            || sentence_like(text)
            || digit_heavy(&without_parens(text))
        {
            continue;
        }
        let mut score = 1.0 - rank as f32 * 0.08;
        if is_company_like(text) {
            score += 2.0;
        }
        score += ((l.bbox.height() / median) - 1.0).clamp(0.0, 1.5);
        if is_address_like(text) {
            score -= 1.5;
        }
        if text.chars().filter(|c| c.is_ascii_digit()).count() > 4 {
            score -= 1.0;
        }
        if best.is_none_or(|(b, ..)| score > b) {
            best = Some((score, l, 0, text.len()));
        }
    }
    let (_, l, s, e) = best?;
    let mut name_span = Span::from_line(l, s, e);
    let h = l.bbox.height().max(1.0);
    let seg = |x: &Line| Span::from_line(x, 0, x.text.find("  ").unwrap_or(x.text.len()));
    // A name broken over two lines: `POPULAR BOOK` / `CO. (M) SDN BHD`, `HOME MASTER HARDWARE &` /
    // `ELECTRICAL`.
    let starts_with_legal = |t: &str| {
        labels::norm_words(t)
            .first()
            .is_some_and(|w| LEGAL.contains(&w.text.as_str()) || w.text == "m")
    };
    // `Delta` / `Catering LLP`: a short name ending in a legal form, under one or two words
    // printed as large, has its first words on the line above.
    let short_head = |p: &Line, t: &str| {
        labels::norm_words(t).len() <= 2
            && name_words(&name_span.text)
                .iter()
                .filter(|w| w.chars().any(char::is_alphanumeric))
                .count()
                <= 3
            && ends_with_legal_form(&name_span.text)
            && !has_legal_form(t)
            && !is_company_like(t)
            && p.bbox.height() >= 0.7 * h
    };
    if let Some(prev) = l.index.checked_sub(1).and_then(|i| doc.lines.get(i))
        && prev.page == l.page
        && l.bbox.y0 - prev.bbox.y1 < 1.0 * h
    {
        let (above, name) = ampersand_at_break(&seg(prev), &name_span);
        if ((starts_with_legal(&name.text) && !quoted_whole(&name.text))
            || short_head(prev, &above.text)
            || begins_name(&above.text, &name.text))
            // A legal form of two letters alone on its line (`IK` / `"Būvniecība Zariņš"`).
            && (meaningful(&above.text) || lone_form(&above.text))
            && !boilerplate(&above.text)
            && !is_address_like(&above.text)
        {
            name_span = merge_spans(&above, &name);
        }
    }
    if let Some(next) = doc.lines.get(l.index + 1)
        && next.page == l.page
        && next.bbox.y0 - l.bbox.y1 < 1.0 * h
    {
        let ns = seg(next);
        let ends_open = name_span.text.trim_end().ends_with(',') || ends_open(&name_span.text);
        let legal_next = ((labels::norm_words(&ns.text).len() <= 4 && starts_with_legal(&ns.text))
            || completes_name(&name_span.text, &ns.text))
            && !is_address_like(&ns.text);
        // The name's last word on a short line of letters as large under it.
        let tail_word = || {
            let after = doc
                .lines
                .get(next.index + 1)
                .filter(|a| a.page == next.page && a.bbox.y0 - next.bbox.y1 < 1.0 * h)
                .map(|a| seg(a).text);
            next.bbox.height() >= 0.8 * h
                && form_first_tail(&name_span.text, &ns.text, after.as_deref())
        };
        if (ends_open && meaningful(&ns.text))
            || (legal_next && !is_id_line(&ns.text))
            || tail_word()
        {
            name_span = merge_spans(&name_span, &ns);
        }
    }
    Some(name_span)
}

/// `AS Tipogrāfija` / `Liepiņš` / `Brīvības iela 111`: whether `next` holds the last word of
/// `name`, a name of two or three words that opens with its legal form and has none closing
/// it, where `next` is a short line of letters (one or two capitalised words, no address, no
/// company, no label) and `after`, the line under it, is the address.
fn form_first_tail(name: &str, next: &str, after: Option<&str>) -> bool {
    let t = next.trim();
    let short_word_line = (1..=2).contains(&t.split_whitespace().count())
        && t.chars().next().is_some_and(char::is_uppercase)
        && t.chars()
            .all(|c| c.is_alphabetic() || " -'\"”»".contains(c));
    if !short_word_line {
        return false;
    }
    let words = name_words(name);
    (2..=3).contains(&words.len())
        && LEGAL_FORMS.contains(&words[0].as_str())
        && !ends_with_legal_form(name)
        && after.is_some_and(is_address_like)
        && !is_address_like(t)
        && !is_company_like(t)
        && labels::find_labels(t).is_empty()
}

/// Whether a segment is a line of a name printed over several lines (inside the name's box, its
/// words among the name's, no digits).
fn in_name(s: &Segment, name: &Span) -> bool {
    let cy = (s.bbox.y0 + s.bbox.y1) / 2.0;
    // Words without the `&` (or the `6` / `8` OCR read for it: [`ampersand_at_break`]).
    let words = |t: &str| {
        t.split_whitespace()
            .filter(|w| !read_ampersand(w))
            .map(|w| w.trim_matches(['&', '.', ',', ':']))
            .filter(|w| !w.is_empty())
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    let of_name = words(&name.text);
    let own = words(&s.text);
    // Lines with digits (a register number printed under the name) stay in the block.
    cy < name.bbox.y1
        && !own.iter().any(|w| w.chars().any(|c| c.is_ascii_digit()))
        && own.iter().all(|w| of_name.contains(w))
}

/// Two spans as one (text joined by a space, boxes united; line and range of the first).
fn merge_spans(a: &Span, b: &Span) -> Span {
    Span {
        page: a.page,
        line: a.line,
        start: a.start,
        end: a.end,
        bbox: a.bbox.union(&b.bbox),
        text: format!("{} {}", a.text.trim_end(), b.text.trim_start()),
        confidence: a.confidence.min(b.confidence),
    }
}

/// Whether a label starts its segment and stands alone there.
fn party_label(seg: &Segment) -> Option<labels::LabelHit> {
    let hits = labels::find_labels(&seg.text);
    let first = *hits.first()?;
    // A phrase of two keys (`From:` is a date word too) is a party label when it opens the
    // segment and stands alone.
    let h = if first.key.is_party() {
        first
    } else {
        labels::find_labels_where(&seg.text, |k| k.is_party())
            .into_iter()
            .find(|p| p.word == first.word && p.words == first.words)?
    };
    (h.word == 0 && stands_alone(&seg.text, h.end)).then_some(h)
}

/// A key the vocabulary does not know (`Arve väljastaja:`, `Paslaugų teikėjas:`, or a known one
/// OCR damaged), printed on one line beside the one party label it does know (`Saaja:`), with
/// a party's block under it: two parties side by side are the seller and the buyer, so the
/// unknown key labels the role the known one leaves. It must head a column whose next lines
/// hold an address or a tax id; a line of keys that names no party, or more than one, infers
/// nothing.
fn other_party_label(
    doc: &CleanDocument,
    segs: &[Segment],
    by_line: &[Vec<usize>],
    line: &[usize],
) -> Option<(usize, labels::LabelHit)> {
    if line.len() < 2 {
        return None;
    }
    let mut known: Option<LabelKey> = None;
    let mut unknown: Option<usize> = None;
    for &si in line {
        let seg = &segs[si];
        if let Some(h) = party_label(seg) {
            if known.is_some_and(|k| k != h.key)
                || !seg.text[h.end..].trim_start_matches([':', ' ']).is_empty()
            {
                return None;
            }
            known = Some(h.key);
            continue;
        }
        let t = seg.text.trim();
        if !(t.ends_with(':') && unknown_key(t)) || unknown.is_some() {
            return None;
        }
        unknown = Some(si);
    }
    let role = match known? {
        LabelKey::Buyer => LabelKey::Seller,
        LabelKey::Seller => LabelKey::Buyer,
        _ => return None,
    };
    let si = unknown?;
    let seg = &segs[si];
    let h = seg.bbox.height().max(1.0);
    // The column under the key: segments starting near its left edge on the next lines.
    let below: Vec<&Segment> = doc
        .lines
        .iter()
        .skip(seg.line + 1)
        .take_while(|l| l.page == seg.page)
        .take(5)
        .filter_map(|l| {
            by_line
                .get(l.index)?
                .iter()
                .map(|&i| &segs[i])
                .find(|s| (s.bbox.x0 - seg.bbox.x0).abs() <= 1.5 * h)
        })
        .collect();
    let party_block = below
        .first()
        .is_some_and(|f| letters(&f.text) >= 3 && !is_key_segment(&f.text))
        && below
            .iter()
            .skip(1)
            .any(|s| is_address_like(&s.text) || is_party_id_line(&s.text));
    let end = seg.text.trim_end().len() - 1;
    party_block.then_some((
        si,
        labels::LabelHit {
            key: role,
            start: 0,
            end,
            word: 0,
            words: labels::norm_words(&seg.text[..end]).len(),
        },
    ))
}

/// The stacked form of [`other_party_label`]: `Key:  Company` rows in one column, one of them
/// under a party label the vocabulary knows (`Maksja:  Kovács Építőipari Nyrt.`), exactly one
/// other under a key it does not know (`Arve väljastaja:  Trükikoda Baltic FIE`), a company's
/// name the value of each, within six lines of each other. Two parties keyed one over the other
/// are the seller and the buyer, so the unknown key labels the role the known one leaves.
/// Returns the unknown key's segment and its inferred label (ending at the colon).
fn other_party_row(segs: &[Segment], by_line: &[Vec<usize>]) -> Option<(usize, labels::LabelHit)> {
    let mut known: Vec<(usize, LabelKey)> = Vec::new();
    let mut unknown: Vec<(usize, usize)> = Vec::new();
    for (si, seg) in segs.iter().enumerate() {
        let line = by_line
            .get(seg.line)
            .into_iter()
            .flatten()
            .map(|&i| &segs[i]);
        let Some((colon, value)) = keyed_value(seg, line).filter(|(_, v)| is_company_like(v))
        else {
            continue;
        };
        let key = &seg.text[..=colon];
        let hits = labels::find_labels(key);
        match hits.first() {
            Some(h) if h.word == 0 && matches!(h.key, LabelKey::Seller | LabelKey::Buyer) => {
                known.push((si, h.key));
            }
            _ if unknown_key(key) && !value.contains(':') => unknown.push((si, colon)),
            _ => {}
        }
    }
    let [(ki, key)] = known[..] else {
        return None;
    };
    let [(ui, colon)] = unknown[..] else {
        return None;
    };
    let (k, u) = (&segs[ki], &segs[ui]);
    let h = u.bbox.height().max(1.0);
    if k.page != u.page || k.line.abs_diff(u.line) > 6 || (k.bbox.x0 - u.bbox.x0).abs() > 1.5 * h {
        return None;
    }
    let role = if key == LabelKey::Buyer {
        LabelKey::Seller
    } else {
        LabelKey::Buyer
    };
    Some((
        ui,
        labels::LabelHit {
            key: role,
            start: 0,
            end: colon,
            word: 0,
            words: labels::norm_words(&u.text[..colon]).len(),
        },
    ))
}

/// A key's words as a label the vocabulary does not know: one to three words, four letters or
/// more, no digits, and a word no label covers ([`unknown_words`]).
fn unknown_key(key: &str) -> bool {
    (1..=3).contains(&labels::norm_words(key).len())
        && letters(key) >= 4
        && !key.chars().any(|c| c.is_ascii_digit())
        && unknown_words(key)
}

/// Whether a key holds a word no label of the vocabulary covers, and no party word
/// (`Arve väljastaja:`: `Arve` is a title word, `väljastaja` unknown).
fn unknown_words(key: &str) -> bool {
    let hits = labels::find_labels(key);
    let covered: usize = hits.iter().map(|h| h.words).sum();
    !hits.iter().any(|h| h.key.is_party()) && covered < labels::norm_words(key).len()
}

/// Whether a name line leaves a quote or bracket open (`АО «Новиков и` / `партнёры»`).
fn leaves_open(text: &str) -> bool {
    let count = |c: char| text.chars().filter(|&x| x == c).count();
    count('«') > count('»')
        || count('“') > count('”')
        || count('„') > count('“') + count('”')
        || count('(') > count(')')
        || count('"') % 2 == 1
}

/// Words that join two names (`Lewandowski i` / `Wójcik S.A.`), in the engine's languages.
const NAME_JOINERS: &[&str] = &[
    "and", "und", "et", "e", "y", "i", "a", "en", "og", "och", "ja", "es", "és", "si", "și", "ir",
    "un", "и", "і", "та",
];

/// Whether a name line is left open for the next line to finish: it ends in `&`, `-`, `+`, a
/// word that joins two names, or an open quote or bracket.
fn ends_open(text: &str) -> bool {
    text.trim_end().ends_with(['&', '-', '+'])
        || leaves_open(text)
        || text
            .split_whitespace()
            .last()
            .is_some_and(|w| NAME_JOINERS.contains(&w.to_lowercase().as_str()))
}

/// Whether the line printed right above a name begins it: the line above is left open, or the
/// name line holds only the legal form (`Garcia & Fernandez` / `S.L.`). The line above must be
/// a name's words: no key, label, address or id.
fn begins_name(above: &str, name: &str) -> bool {
    let above = above.trim();
    // A legal form alone on its line before the name (`ИП` / `Соколов К.Г.`).
    if lone_form(above) {
        return letters(name) >= 3
            && !has_legal_form(name)
            && !is_address_like(name)
            && !is_id_line(name);
    }
    (ends_open(above) || name.trim_start().starts_with(['&', '+']) || is_legal_tail(name))
        && meaningful(above)
        && !super::titles::title_phrase(above)
        && !above.ends_with(':')
        && !is_address_like(above)
        && !is_id_line(above)
        && !digit_heavy(above)
        && !has_legal_form(above)
}

/// A line holding only a legal form (`AS`, `ИП`, `S.L.`).
fn lone_form(text: &str) -> bool {
    is_legal_tail(text) && name_words(text).len() == 1
}

/// A `6` or `8` (with OCR's stray punctuation) that may be a name's `&` misread.
fn read_ampersand(word: &str) -> bool {
    matches!(word.trim_end_matches(['.', ':', ',']), "6" | "8")
}

/// A name broken over two lines at its `&`, which OCR read as `6` or `8` (`Lewandowski 6` /
/// `Wójcik S.A.`, `Kowalski` / `6 Zieliński Sp. k.`): the digit standing alone at the break,
/// between words of letters and a line ending in a legal form, is read back as `&`.
fn ampersand_at_break(above: &Span, below: &Span) -> (Span, Span) {
    let words_only = |t: &str| {
        !t.trim().is_empty()
            && t.split_whitespace().all(|w| {
                w.chars().next().is_some_and(char::is_uppercase)
                    && w.chars()
                        .all(|c| c.is_alphabetic() || matches!(c, '-' | '.' | '\''))
            })
    };
    let (mut a, mut b) = (above.clone(), below.clone());
    if !ends_with_legal_form(&below.text) {
        return (a, b);
    }
    let at = above.text.trim_end();
    if let Some((head, last)) = at.rsplit_once(' ')
        && read_ampersand(last)
        && words_only(head)
    {
        a.text = format!("{head} &");
    } else if let Some((first, rest)) = below.text.trim_start().split_once(' ')
        && read_ampersand(first)
        && words_only(at)
        && rest.chars().next().is_some_and(char::is_uppercase)
    {
        b.text = format!("& {rest}");
    }
    (a, b)
}

/// Whether `next` completes the company name `name` printed on the line above: it ends in a
/// legal form the name lacks (`Bianchi` / `Impianti Elettrici S.r.l.`, `Alpha` / `El HB`), or it
/// brackets the tail of the name's legal form (`Müller Elektro UG` / `(haftungsbeschränkt)`).
fn completes_name(name: &str, next: &str) -> bool {
    (name_words(next).len() <= 4 && ends_with_legal_form(next) && !has_legal_form(name))
        || (bracketed_tail(next) && ends_with_legal_form(name))
}

/// A line that only continues a legal form in brackets (`(haftungsbeschränkt)`).
fn bracketed_tail(text: &str) -> bool {
    let t = text.trim();
    t.starts_with('(')
        && t.ends_with(')')
        && labels::norm_words(t).len() <= 2
        && !t.chars().any(|c| c.is_ascii_digit())
}

/// Keys of `Key: value` form rows.
fn is_key_segment(text: &str) -> bool {
    let t = text.trim();
    let words = labels::norm_words(t);
    if words.is_empty() || words.len() > 4 {
        return false;
    }
    if t.ends_with(':') {
        return true;
    }
    // A whole label phrase without a colon (`Name`, `USt-IdNr.`).
    let hits = labels::find_labels(t);
    hits.first()
        .is_some_and(|h| h.word == 0 && hits.iter().map(|h| h.words).sum::<usize>() == words.len())
}

/// The key of a form row and the value printed after it in the same segment
/// (`Name: Lieferant GmbH`), if the segment starts with a key.
fn split_key(seg: &Segment) -> Option<(LabelKey, Option<Segment>)> {
    let text = &seg.text;
    if is_key_segment(text) {
        let key = labels::find_labels(text)
            .first()
            .filter(|h| h.word == 0)
            .map_or(LabelKey::NumberGeneric, |h| h.key);
        return Some((key, None));
    }
    let colon = text.find(':')?;
    let head = &text[..colon];
    if labels::norm_words(head).len() > 3 {
        return None;
    }
    let h = labels::find_labels(head)
        .into_iter()
        .find(|h| h.word == 0)?;
    if h.key.is_party() {
        return None;
    }
    let rest = colon + 1 + (text[colon + 1..].len() - text[colon + 1..].trim_start().len());
    let value = (rest < text.len()).then(|| sub_span(seg, rest, text.len()));
    Some((h.key, value))
}

/// Letters in a text.
fn letters(text: &str) -> usize {
    text.chars().filter(|c| c.is_alphabetic()).count()
}

/// The text without parenthesised parts (`AMANO SDN BHD (682288-V)` → `AMANO SDN BHD `).
fn without_parens(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut depth = 0usize;
    for c in text.chars() {
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => depth = depth.saturating_sub(1),
            _ if depth == 0 => out.push(c),
            _ => {}
        }
    }
    out
}

/// A run of six or more digits, or more digits than letters: an id or number line, not a name.
fn digit_heavy(text: &str) -> bool {
    let digits = text.chars().filter(char::is_ascii_digit).count();
    let mut run = 0;
    let mut longest = 0;
    for c in text.chars() {
        if c.is_ascii_digit() {
            run += 1;
            longest = longest.max(run);
        } else if c != ' ' {
            run = 0;
        }
    }
    // Six digits in a row can be a postcode (`620014, г. Екатеринбург`, `300001 Timișoara`).
    longest >= 7 || digits > letters(text)
}

/// Salutations printed on their own line or before a name (`Herrn`, `Firma`, `Mr`).
const SALUTATIONS: &[&str] = &[
    "herrn",
    "herr",
    "frau",
    "firma",
    "an",
    "to",
    "mr",
    "mrs",
    "ms",
    "messrs",
    "attn",
    "m",
    "mme",
    "monsieur",
    "madame",
    "pan",
    "pani",
    "пан",
    "пані",
    "господин",
    "г-н",
    "г-ну",
];

fn is_salutation(text: &str) -> bool {
    let w = labels::norm_words(text);
    w.len() == 1 && SALUTATIONS.contains(&w[0].text.as_str())
}

/// A name without a leading salutation word (`Herrn Max Mustermann` → `Max Mustermann`).
fn strip_salutation(span: &Span) -> Span {
    let w = labels::norm_words(&span.text);
    if w.len() >= 3
        && SALUTATIONS.contains(&w[0].text.as_str())
        && w[0].text != "m"
        && let Some(next) = w.get(1)
    {
        return sub_span(span, next.start, span.text.len());
    }
    span.clone()
}

/// A name whole on its own line: a legal form before a quoted name whose quotes close at the
/// line's end (`АО «Попов и партнёры»`, `UAB "Baldai Baltic"`). No line above begins it.
fn quoted_whole(text: &str) -> bool {
    let t = text.trim();
    let Some((form, rest)) = t.split_once(' ') else {
        return false;
    };
    LEGAL_FORMS.contains(&name_words(form).concat().as_str())
        && rest.trim_start().starts_with(['«', '"', '„', '“'])
        && t.ends_with(['»', '"', '”', '“'])
        && !leaves_open(t)
}

/// Words that only continue a name (`Sp. z o.o.`, `GmbH & Co. KG`, `a.G.`).
fn is_legal_tail(text: &str) -> bool {
    // Name words keep a dotted form whole (`a.s.` is `as`).
    let w = name_words(text);
    !quoted_whole(text)
        && !w.is_empty()
        && w.len() <= 4
        && (LEGAL.contains(&w[0].as_str()) || LEGAL_FORMS.contains(&w[0].as_str()))
        // Legal forms print capitals or dots (`SE`, `sp. j.`); a bare `se` is a word.
        && text.chars().any(|c| c.is_uppercase() || c == '.')
        && !is_address_like(text)
}

/// Cuts a name at the first comma that starts address or id details
/// (`ООО «СтройМонтаж», г. Казань, ул. Баумана, д. 19, ИНН …`).
fn cut_details(span: &Span) -> Span {
    match details_comma(&span.text) {
        Some(at) => sub_span(span, 0, at),
        None => span.clone(),
    }
}

/// Where [`cut_details`] cuts `t`: the first comma after at least three letters that starts
/// address or id details.
fn details_comma(t: &str) -> Option<usize> {
    let mut from = 0;
    while let Some(p) = t[from..].find(',') {
        let at = from + p;
        let rest = t[at + 1..].trim_start();
        let next_part = rest.split(',').next().unwrap_or("");
        let details = is_address_like(next_part)
            || is_id_line(next_part)
            || labels::find_labels(next_part)
                .first()
                .is_some_and(|h| h.word == 0 && h.key.is_tax_id())
            || ADDRESS_START.is_match(next_part);
        if details && letters(&t[..at]) >= 3 {
            return Some(at);
        }
        from = at + 1;
    }
    None
}

static ADDRESS_START: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)^(г|м|с|смт|пгт|обл|р-н|ул|вул|пр|просп|пл|д|буд|кв|ul|al|os|pl)\.\s")
        .expect("address start regex")
});

/// A company's name printed after a party's address: the next party begins (`Váci út 146., 9021
/// Győr` / `Kovács Nyomda Bt.`). The name ends in its legal form (a form before a name is too
/// often a word of an address: `KG PASIR PUTIH`, a village).
fn begins_next_party(seg: &Segment) -> bool {
    let head = cut_details(seg);
    ends_with_legal_form(&head.text) && !is_address_like(&head.text)
}

/// The segments of a party's area up to the next party's name (see [`begins_next_party`]),
/// when an address line stands between the two names.
fn until_next_party(segs: Vec<Segment>, name: &Span) -> Vec<Segment> {
    let mut seen_address = false;
    let cut = segs.iter().position(|s| {
        if s.line <= name.line || in_name(s, name) {
            return false;
        }
        if seen_address && begins_next_party(s) {
            return true;
        }
        seen_address |= is_address_like(&s.text);
        false
    });
    match cut {
        Some(k) => {
            let line = segs[k].line;
            segs.into_iter().filter(|s| s.line < line).collect()
        }
        None => segs,
    }
}

/// A name and address lines, each with where it was printed.
type NameAddress = (Option<(String, Span)>, Vec<(String, Span)>);

/// Splits content lines into a name and address lines.
fn name_and_address(lines: &[Segment]) -> NameAddress {
    let mut name: Option<Span> = None;
    let mut address = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let l = &lines[i];
        let text = l.text.as_str();
        i += 1;
        if is_id_line(text) || letters(text) < 2 {
            continue;
        }
        // A label of its own (`Aan:`, `Bill to:`), known to the vocabulary or not: no name.
        if name.is_none() && text.trim_end().ends_with(':') && labels::norm_words(text).len() <= 3 {
            continue;
        }
        if name.is_none() {
            if is_salutation(text) {
                // `Herrn` / `Max Mustermann`: the name is on the next line.
                if let Some(next) = lines.get(i)
                    && !is_address_like(&next.text)
                    && !is_id_line(&next.text)
                {
                    name = Some(merge_spans(l, next));
                    i += 1;
                }
                continue;
            }
            // A legal form alone on its line before the name (`AS` / `"Tirdzniecība Kalniņš"`).
            if lone_form(text)
                && let Some(next) = lines.get(i)
                && begins_name(text, &next.text)
            {
                name = Some(merge_spans(l, next));
                i += 1;
                continue;
            }
            // Judge the name part only (`ООО «…», г. Казань, …, ИНН 1655012344`).
            let head = cut_details(l);
            if digit_heavy(&head.text) || letters(&head.text) < 3 {
                continue;
            }
            // `Lewandowski 6` over `Wójcik S.A.` is a name broken at its `&`, not a street.
            let broken_name = lines
                .get(i)
                .is_some_and(|next| ampersand_at_break(l, next).0.text != l.text);
            if is_address_like(&head.text) && !is_company_like(&head.text) && !broken_name {
                address.push(l.clone());
                continue;
            }
            let mut n = l.clone();
            // A name broken over two lines: the second holds only the legal form, or the first
            // ends open (`&`, `-`, `and`).
            while let Some(next) = lines.get(i) {
                let (fixed, next) = ampersand_at_break(&n, next);
                let next = &next;
                let open = ends_open(&fixed.text) || next.text.starts_with('&');
                let tail = is_legal_tail(&next.text)
                    || completes_name(&n.text, &next.text)
                    || form_first_tail(
                        &n.text,
                        &next.text,
                        lines.get(i + 1).map(|a| a.text.as_str()),
                    );
                if (open || tail) && !is_id_line(&next.text) && !is_address_like(&next.text) {
                    n = merge_spans(&fixed, next);
                    i += 1;
                } else {
                    break;
                }
            }
            name = Some(cut_details(&strip_salutation(&n)));
            // Details after the name on the same line are address lines.
            if n.text.len() > name.as_ref().map_or(0, |x| x.text.len()) + 1 {
                let cut = name.as_ref().map_or(0, |x| x.text.len());
                let rest = sub_span(&n, cut, n.text.len());
                let rest_text = rest.text.trim_start_matches([',', ' ']).to_string();
                if !rest_text.is_empty() {
                    address.push(Span {
                        text: rest_text,
                        ..rest
                    });
                }
            }
            continue;
        }
        if !address.is_empty() && begins_next_party(l) {
            break;
        }
        address.push(l.clone());
    }
    // Contact lines between the name and the street (`Max Mustermann`, `Muster-Einkauf` over
    // `Erfurter Strasse 13`): lines without a digit that are neither address-like nor a
    // company's (a legal form: the name above is then no name), printed before the first
    // address-like line with a digit, are the addressee's people and departments, not the
    // address. That line must be a street, not the town's postcode line: a place without a
    // number over the town is the address's (`ZI du Mirail` / `31100 Toulouse`).
    if let Some(street) = address
        .iter()
        .position(|s| s.text.contains(|c: char| c.is_ascii_digit()) && is_address_like(&s.text))
        && street > 0
        && !POSTCODE.is_match(&address[street].text)
        && address[..street].iter().all(|s| {
            !s.text.contains(|c: char| c.is_ascii_digit())
                && !is_address_like(&s.text)
                && !is_company_like(&s.text)
        })
    {
        address.drain(..street);
    }
    let name = name
        .map(|s| (clean_text(&s.text), s))
        .filter(|(t, _)| letters(t) >= 2);
    let address = address
        .into_iter()
        .filter(|s| !is_id_line(&s.text) && !phone_line(&s.text) && !boilerplate(&s.text))
        .take(4)
        .map(|s| (without_ids(&s.text), s))
        .filter(|(t, _)| !t.is_empty())
        .collect();
    (name, address)
}

/// An address line without the ids printed in it (`г. Казань, д. 19, ИНН 1655012344` →
/// `г. Казань, д. 19`), cleaned.
fn without_ids(text: &str) -> String {
    without_parts(text, |p| {
        is_id_line(p) || is_party_id_line(p) || long_number(p)
    })
}

/// An address line without the party ids printed after it (`…, 8000 Aarhus C, SE-nr.
/// DK45377059`, `…, NIP 631-527-…`): tax ids, contacts, bank details and long digit runs; a
/// house number stays (`GROUND FLOOR, NO. 4 & 6`), cleaned.
fn without_party_ids(text: &str) -> String {
    without_parts(text, |p| {
        holds_only_an_id(p) || is_party_id_line(p) || long_number(p)
    })
}

/// A line's comma-separated parts but those `drop` names, joined again and cleaned.
fn without_parts(text: &str, drop: impl Fn(&str) -> bool) -> String {
    let parts: Vec<&str> = text.split(", ").filter(|p| !drop(p.trim())).collect();
    clean_text(&parts.join(", "))
}

/// Trims separators and collapses spaces.
fn clean_text(s: &str) -> String {
    s.trim_matches(|c: char| c.is_whitespace() || matches!(c, ',' | ';' | ':' | '-' | '·' | '•'))
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// Layout shared by the candidate finders.
struct Page<'a> {
    doc: &'a CleanDocument,
    segs: Vec<Segment>,
    blocks: Vec<Block>,
    /// Segment indices of each line.
    by_line: Vec<Vec<usize>>,
    /// Party labels the vocabulary does not know, read from the label beside them (by segment).
    inferred: Vec<Option<labels::LabelHit>>,
}

impl<'a> Page<'a> {
    fn new(doc: &'a CleanDocument) -> Self {
        let segs = layout::segments(doc);
        let blocks = layout::blocks(&segs, &BlockParams::default());
        let mut by_line = vec![Vec::new(); doc.lines.len()];
        for (i, s) in segs.iter().enumerate() {
            if let Some(v) = by_line.get_mut(s.line) {
                v.push(i);
            }
        }
        let mut inferred = vec![None; segs.len()];
        for line in &by_line {
            if let Some((si, hit)) = other_party_label(doc, &segs, &by_line, line) {
                inferred[si] = Some(hit);
            }
        }
        if inferred.iter().all(Option::is_none)
            && let Some((si, hit)) = other_party_row(&segs, &by_line)
        {
            inferred[si] = Some(hit);
        }
        Page {
            doc,
            segs,
            blocks,
            by_line,
            inferred,
        }
    }

    /// The party label that opens a segment: one of the vocabulary, or one read from its
    /// neighbour (`other_party_label`).
    fn party_label(&self, si: usize) -> Option<labels::LabelHit> {
        party_label(&self.segs[si]).or(self.inferred[si])
    }

    fn line_segs(&self, line: usize) -> impl Iterator<Item = &Segment> {
        self.by_line
            .get(line)
            .into_iter()
            .flatten()
            .map(|&i| &self.segs[i])
    }
}

/// Whether a segment ends a party section: another standalone party label, a totals label, a
/// table header.
fn ends_section(seg: &Segment, line: &Line) -> bool {
    if party_label(seg).is_some() {
        return true;
    }
    let hits = labels::find_labels(&seg.text);
    if hits
        .first()
        .is_some_and(|h| h.word == 0 && h.key.is_totals() && stands_alone(&seg.text, h.end))
    {
        return true;
    }
    labels::find_labels(&line.text)
        .iter()
        .filter(|h| h.key.is_column())
        .count()
        >= 3
}

/// A row in a party label's own column whose key the vocabulary does not know and whose value
/// is a company's name (`Vastaanottaja:  Alpha Rakennus Oy` under `Toimittaja:  Heikkinen
/// Kuljetus Oy`): the next party's section, not this one's.
fn another_party_row(p: &Page<'_>, key: &Segment) -> bool {
    keyed_value(key, p.line_segs(key.line))
        .is_some_and(|(colon, value)| unknown_key(&key.text[..colon]) && is_company_like(value))
}

/// The value of a `Key: value` segment: the text after its first colon, else the next segment
/// right of it on its line (`right`: the line's segments), with the colon's byte index.
fn keyed_value<'a>(
    key: &'a Segment,
    mut right: impl Iterator<Item = &'a Segment>,
) -> Option<(usize, &'a str)> {
    let colon = key.text.find(':')?;
    let inline = key.text[colon + 1..].trim();
    let value = if inline.is_empty() {
        right
            .find(|o| o.start > key.end)
            .map_or("", |o| o.text.as_str())
    } else {
        inline
    };
    Some((colon, value))
}

/// A labelled party section.
fn labelled(p: &Page<'_>, si: usize) -> Option<PartyCandidate> {
    let seg = &p.segs[si];
    let hit = p.party_label(si)?;
    let line = p.doc.lines.get(seg.line)?;
    let h = seg.bbox.height().max(1.0);
    let label_x = seg.bbox.x0;
    let mut region = vec![seg.clone()];
    // The value on the label's own line: after the label in its segment, or the next segment.
    let after = seg.text[hit.end..]
        .find(|c: char| c.is_alphanumeric() || matches!(c, '«' | '"' | '„' | '“'))
        .map(|p| hit.end + p);
    let mut first: Option<Segment> = None;
    if let Some(a) = after {
        let inline = sub_span(seg, a, seg.text.len());
        // `Customer: 2`, `Kunde: 10023`: a customer number, not a section.
        if letters(&inline.text) < 3
            || (digit_heavy(&inline.text) && labels::norm_words(&inline.text).len() <= 2)
        {
            return None;
        }
        first = Some(inline);
    } else if let Some(next) = p
        .line_segs(seg.line)
        .find(|o| o.bbox.x0 > seg.bbox.x1 && o.start > seg.end)
    {
        // A value to the right, unless it is a title (larger print), another label, or far away.
        let far = next.bbox.x0 - seg.bbox.x1 > 12.0 * h;
        let bigger = next.bbox.height() > 1.4 * h;
        let label = labels::find_labels(&next.text)
            .first()
            .is_some_and(|x| x.word == 0 && (x.key.is_party() || x.key == LabelKey::Title));
        let has_letters = letters(&next.text) >= 3 && !digit_heavy(&next.text);
        // With content right under the label in its own column, the right segment is another
        // column (`Lieferant   Käufer`), not this label's value.
        let below_in_column = p.doc.lines.get(seg.line + 1).is_some_and(|nl| {
            nl.page == seg.page
                && nl.bbox.y0 - seg.bbox.y1 < 2.6 * h
                && p.line_segs(nl.index)
                    .any(|s| (s.bbox.x0 - label_x).abs() <= 1.5 * h && !is_key_segment(&s.text))
        });
        if !far && !bigger && !label && has_letters && !below_in_column {
            first = Some(next.clone());
        }
    }
    let mut anchors = vec![label_x];
    if let Some(f) = &first {
        region.push(f.clone());
        anchors.push(f.bbox.x0);
    }
    // The right edge of the section: the next segment on the label's line that is not its value.
    let right_limit = p
        .line_segs(seg.line)
        .filter(|o| o.start > seg.end && first.as_ref().is_none_or(|f| o.start > f.start))
        .map(|o| o.bbox.x0)
        .fold(f32::MAX, f32::min);

    // Walk down: rows of segments in the section's column(s).
    let mut rows: Vec<Row> = Vec::new();
    let mut last_y = seg.bbox.y1;
    let mut gaps: Vec<f32> = Vec::new();
    let mut after_break = false;
    let mut value_x = f32::MAX;
    let mut pending: Vec<Segment> = Vec::new();
    for next in p.doc.lines.iter().skip(line.index + 1) {
        if next.page != seg.page || rows.len() >= 12 {
            break;
        }
        if next.bbox.y0 - last_y > 2.6 * h {
            break;
        }
        let in_cols: Vec<&Segment> = p
            .line_segs(next.index)
            .filter(|s| s.bbox.x0 >= label_x - 0.5 * h && s.bbox.x0 < right_limit)
            .collect();
        if in_cols.is_empty() {
            continue;
        }
        // Gaps between this section's own segments (a line's box may also hold a taller title
        // or a lower value of another column).
        let gap = in_cols.iter().map(|s| s.bbox.y0).fold(f32::MAX, f32::min) - last_y;
        if gap > 2.6 * h {
            break;
        }
        let anchor = in_cols
            .iter()
            .find(|s| anchors.iter().any(|&a| (s.bbox.x0 - a).abs() <= 1.5 * h))
            .copied();
        if let Some(a) = anchor
            && (ends_section(a, next)
                || ((a.bbox.x0 - label_x).abs() <= 1.5 * h && another_party_row(p, a)))
        {
            break;
        }
        // A paragraph break inside the section (a gap well above the line spacing so far): only
        // id rows (`USt-IdNr.: …`) still belong to it.
        if !gaps.is_empty() {
            let mut sorted = gaps.clone();
            sorted.sort_by(f32::total_cmp);
            let median = sorted[sorted.len() / 2];
            let mut heights: Vec<f32> = rows
                .iter()
                .filter_map(|r| r.anchor.as_ref().map(|a| a.bbox.height()))
                .collect();
            heights.sort_by(f32::total_cmp);
            let row_h = heights.get(heights.len() / 2).copied().unwrap_or(h);
            // The town line of a postal address under its street (`Musterstraße 12` / a blank
            // line / `DE 12345 Beispielstadt`) continues the address, whatever the gap.
            let town_of_street = anchor.is_some_and(|a| POSTCODE.is_match(&a.text))
                && rows
                    .last()
                    .and_then(|r| r.anchor.as_ref())
                    .is_some_and(|prev| address_line(&prev.text) && !POSTCODE.is_match(&prev.text));
            if gap > (1.8 * median).max(0.9 * row_h) && !town_of_street {
                after_break = true;
            }
        }
        let row = match anchor {
            Some(a) => {
                let key = split_key(a);
                // Segments right of a bare key (`Name:`) are its values; right of content (or of a
                // key with its value inline) they belong to another column.
                let values: Vec<Segment> =
                    if key.as_ref().is_some_and(|(_, inline)| inline.is_none()) {
                        in_cols
                            .iter()
                            .filter(|s| s.bbox.x0 > a.bbox.x1)
                            .map(|s| (*s).clone())
                            .collect()
                    } else {
                        Vec::new()
                    };
                if key.is_some()
                    && let Some(v) = values.first()
                {
                    value_x = value_x.min(v.bbox.x0);
                    // Value cells seen before the first key row (`Herrn` above `Name:`).
                    for seg in pending.drain(..) {
                        if (seg.bbox.x0 - value_x).abs() <= 1.5 * h {
                            rows.push(Row {
                                anchor: None,
                                key: None,
                                values: vec![seg],
                            });
                        }
                    }
                }
                Row {
                    anchor: Some(a.clone()),
                    key,
                    values,
                }
            }
            None => {
                let values: Vec<Segment> = in_cols
                    .iter()
                    .filter(|s| (s.bbox.x0 - value_x).abs() <= 1.5 * h)
                    .map(|s| (*s).clone())
                    .collect();
                if values.is_empty() {
                    if value_x == f32::MAX {
                        pending.extend(in_cols.iter().map(|s| (*s).clone()));
                    }
                    continue;
                }
                Row {
                    anchor: None,
                    key: None,
                    values,
                }
            }
        };
        // After a break only ids (`USt-IdNr.: …`) and, in a form, further key rows belong here.
        let is_form = rows.iter().any(|r| r.key.is_some() && !r.values.is_empty());
        let continues_form = is_form && (row.key.is_some() || row.anchor.is_none());
        if after_break
            && !continues_form
            && !row
                .anchor
                .as_ref()
                .is_some_and(|a| is_party_id_line(&a.text))
        {
            break;
        }
        gaps.push(gap.max(0.0));
        rows.push(row);
        last_y = rows
            .last()
            .into_iter()
            .flat_map(|r| r.anchor.iter().chain(r.values.iter()))
            .map(|s| s.bbox.y1)
            .fold(last_y, f32::max);
    }
    for r in &rows {
        region.extend(r.anchor.iter().cloned());
        region.extend(r.values.iter().cloned());
    }
    let form = rows.iter().any(|r| r.key.is_some() && !r.values.is_empty());
    let (keyed_name, keyed_address) = if form {
        form_fields(&rows)
    } else {
        (None, Vec::new())
    };
    // Plain rows (no key): the content of an ordinary address block.
    let mut content: Vec<Segment> = first.into_iter().collect();
    for r in &rows {
        match (&r.anchor, &r.key) {
            (Some(a), None) => content.push(a.clone()),
            (Some(a), Some(_)) if !form || r.values.is_empty() => {
                // `Name: Lieferant GmbH` in one segment, ids: kept for name_and_address.
                content.push(a.clone());
            }
            _ => {}
        }
    }
    let (plain_name, plain_address) = name_and_address(&content);
    let name = keyed_name.or(plain_name);
    let address = if keyed_address.is_empty() {
        plain_address
    } else {
        keyed_address
    };
    if name.is_none() && address.is_empty() {
        return None;
    }
    Some(PartyCandidate {
        role: hit.key,
        source: if form {
            PartySource::Form
        } else {
            PartySource::Labelled
        },
        name,
        address,
        region,
        label_line: Some(seg.line),
    })
}

/// One row of a party section.
struct Row {
    /// The segment in the section's column (None for a row with only a value cell).
    anchor: Option<Segment>,
    /// The anchor is a form key (`Name:`), with the value printed in it, if any.
    key: Option<(LabelKey, Option<Segment>)>,
    /// Segments right of the anchor (or in the value column).
    values: Vec<Segment>,
}

/// Name and address of a form section: every value belongs to the nearest key row (the upper one
/// on a tie).
fn form_fields(rows: &[Row]) -> NameAddress {
    struct KeyRow {
        key: LabelKey,
        cy: f32,
        values: Vec<Segment>,
    }
    let mut keys: Vec<KeyRow> = Vec::new();
    // Values with whether their row has no key of its own.
    let mut values: Vec<(Segment, bool)> = Vec::new();
    for r in rows {
        match (&r.anchor, &r.key) {
            (Some(a), Some((key, inline))) => {
                keys.push(KeyRow {
                    key: *key,
                    cy: a.bbox.cy(),
                    values: Vec::new(),
                });
                values.extend(inline.iter().map(|v| (v.clone(), false)));
                values.extend(r.values.iter().map(|v| (v.clone(), false)));
            }
            (None, _) => values.extend(r.values.iter().map(|v| (v.clone(), true))),
            _ => {}
        }
    }
    if keys.is_empty() {
        return (None, Vec::new());
    }
    for (v, keyless) in values {
        let cy = v.bbox.cy();
        // The nearest key row; within half a point, the upper one.
        let mut best = 0;
        for (k, row) in keys.iter().enumerate() {
            if (row.cy - cy).abs() < (keys[best].cy - cy).abs() - 0.5 {
                best = k;
            }
        }
        // A town line on a row of its own (`DE 12345 Beispielstadt` between `Anschrift:` and
        // `Telefon:`) continues the nearest address key within three rows (a row: 1.6 line
        // heights).
        let three_rows = 3.0 * 1.6 * v.bbox.height().max(1.0);
        if keyless
            && is_address_like(&v.text)
            && let Some((k, _)) = keys
                .iter()
                .enumerate()
                .filter(|(_, r)| r.key == LabelKey::Address && (r.cy - cy).abs() <= three_rows)
                .min_by(|a, b| (a.1.cy - cy).abs().total_cmp(&(b.1.cy - cy).abs()))
        {
            best = k;
        }
        keys[best].values.push(v);
    }
    let joined = |key: LabelKey| -> Option<Span> {
        let row = keys.iter().find(|r| r.key == key)?;
        let mut it = row.values.iter();
        let first = it.next()?.clone();
        Some(it.fold(first, |a, b| merge_spans(&a, b)))
    };
    let name = joined(LabelKey::Name)
        .map(|s| strip_salutation(&s))
        .map(|s| (clean_text(&s.text), s));
    let address = keys
        .iter()
        .filter(|r| r.key == LabelKey::Address)
        .flat_map(|r| r.values.iter())
        .map(|s| (clean_text(&s.text), s.clone()))
        .collect();
    (name, address)
}

/// Separators of a sender line (`Firma · Straße 1 · 12345 Ort`).
const SENDER_SEPARATORS: &[&str] = &[" · ", " • ", " ● ", " | ", " - ", " – ", " ⋅ "];

/// Middle dots and bullets printed without spaces around them, as OCR reads a small `·` between
/// words (`Fairbairn LLP·134 Victoria Road`): byte ranges of the dots. A dot between two
/// lower-case letters is a letter's part (Catalan `l·l`), no separator.
fn bare_dots(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for (p, c) in text.char_indices() {
        if !matches!(c, '·' | '•' | '●' | '⋅') {
            continue;
        }
        let end = p + c.len_utf8();
        let before = text[..p].chars().next_back();
        let after = text[end..].chars().next();
        // Spaced on both sides: one of `SENDER_SEPARATORS`.
        let spaced =
            before.is_none_or(char::is_whitespace) && after.is_none_or(char::is_whitespace);
        let in_word =
            before.is_some_and(char::is_lowercase) && after.is_some_and(char::is_lowercase);
        if !spaced && !in_word {
            // A space on one side goes with the dot.
            let from = p - (text[..p].len() - text[..p].trim_end().len());
            let to = end + (text[end..].len() - text[end..].trim_start().len());
            out.push((from, to));
        }
    }
    out
}

/// Where a name that a legal form or a closing quote closes ends in `text` followed by an
/// address (`Kiss és Szabó Nyrt. Fő utca 88.`, `IĮ "Elektra Stankevičius" Pramonės g. 48`):
/// the end of the form or quote and the start of the address. The form follows at least one
/// word of the name (a form that opens a name, `SIA Baltija`, closes nothing); the quote closes
/// one opened before it.
fn after_closing_form(text: &str) -> Option<(usize, usize)> {
    let words: Vec<(usize, &str)> = text
        .split_whitespace()
        .map(|w| (w.as_ptr() as usize - text.as_ptr() as usize, w))
        .collect();
    words.iter().enumerate().find_map(|(i, &(at, w))| {
        let (next_at, next) = *words.get(i + 1)?;
        let form = name_words(w).concat();
        let rest = &text[next_at..];
        let closing_form = i > 0
            && ((LEGAL_FORMS.contains(&form.as_str()) && form.chars().count() >= 2)
                || ends_with_spaced_form(&text[..at + w.len()]));
        // The quote may carry the full stop or comma that ended the name (`"Tipogrāfija Nord".`).
        let quoted = w.trim_end_matches(['.', ',']);
        let open = quoted.trim_end_matches(['"', '”', '“', '»']);
        let closing_quote =
            open.len() < quoted.len() && text[..at + open.len()].contains(['"', '„', '“', '«']);
        // The address opens with a capital, a number or a street's abbreviation (`al.`, `ul.`).
        let street_abbreviation = next.ends_with('.') && (2..=3).contains(&next.chars().count());
        ((closing_form || closing_quote)
            && (next.starts_with(|c: char| c.is_uppercase() || c.is_ascii_digit())
                || street_abbreviation)
            && is_address_like(rest)
            && !is_address_like(&text[..at + w.len()]))
        .then_some((
            at + if closing_form { w.len() } else { quoted.len() },
            next_at,
        ))
    })
}

/// Where `sep` stands right after a letter and right before a capital (`CommV,Kerkstraat`,
/// `MTÜ- Viru`): the separator's byte range.
fn glued_between_words<'t>(
    text: &'t str,
    sep: &'t str,
) -> impl Iterator<Item = (usize, usize)> + 't {
    text.match_indices(sep).filter_map(move |(p, _)| {
        let e = p + sep.len();
        (text[..p]
            .chars()
            .next_back()
            .is_some_and(char::is_alphabetic)
            && text[e..].starts_with(char::is_uppercase))
        .then_some((p, e))
    })
}

/// The parts of a line printed as `name · street · town`, when at least one part after the
/// first reads like an address.
pub fn sender_parts(text: &str) -> Option<Vec<(usize, usize)>> {
    let mut cuts: Vec<(usize, usize)> = Vec::new();
    for sep in SENDER_SEPARATORS {
        for (p, _) in text.match_indices(sep) {
            cuts.push((p, p + sep.len()));
        }
    }
    cuts.extend(bare_dots(text));
    // A dot OCR read as a dash glued to the next word (`Nielsen A/S -Industrivej 176`): a dash
    // after a space and before a capital is no hyphen (it joins without spaces) and no minus.
    for (p, _) in text.match_indices(" -") {
        if text[p + 2..].starts_with(char::is_uppercase) {
            cuts.push((p, p + 2));
        }
    }
    // Or glued to the full stop before it (`Veselý & Svoboda k.s.- Masarykova 76`): a dash
    // after a full stop and before a space is no hyphen either.
    for (p, _) in text.match_indices(".- ") {
        if text[p + 3..].starts_with(char::is_uppercase) {
            cuts.push((p + 1, p + 3));
        }
    }
    // A comma glued to the capital after it (`Alpha Informatica CommV,Kerkstraat 167`): a
    // separator OCR read as a comma, or whose space it lost; prose sets a space after a comma.
    cuts.extend(glued_between_words(text, ","));
    // A dot OCR read as a full stop spaced on both sides (`Oliveira & Silva Lda. Rua Augusta,
    // 131 . 8000-001 Faro`): a full stop never stands alone between words, but one spaced off
    // a lone word is its abbreviation's (`Musterstr . 5`), unless the line is already cut.
    for (p, _) in text.match_indices(" . ") {
        if !cuts.is_empty() || text[..p].split_whitespace().count() >= 2 {
            cuts.push((p, p + 3));
        }
    }
    if cuts.is_empty() {
        return None;
    }
    // On a line already cut so, a dash glued to a word and spaced before a capital is a dot
    // OCR misread too (`Elekter Mägi MTÜ- Viru tn 68 · 20308 Narva`).
    if !cuts.is_empty() {
        cuts.extend(glued_between_words(text, "- "));
    }
    // On a line already cut so, a colon spaced on both sides between two parts is a dot OCR
    // misread too (`Industrivej 176 : 1620 København V`); alone it is a key's colon.
    for (p, _) in text.match_indices(" : ") {
        if !cuts.iter().any(|&(s, e)| s <= p && p < e) {
            cuts.push((p, p + 3));
        }
    }
    cuts.sort_unstable();
    let mut parts = Vec::new();
    let mut from = 0;
    for (s, e) in cuts {
        if s > from {
            parts.push((from, s));
        }
        from = e;
    }
    if from < text.len() {
        parts.push((from, text.len()));
    }
    // The separator after the name lost to OCR (`Kiss és Szabó Nyrt. Fő utca 88. · 4024
    // Debrecen`): the name ends at the legal form that closes it, where an address follows.
    // Or at a comma before its address (`AB Elektra Group, Konstitucijos pr. 137 · …`).
    if let Some(&(s, e)) = parts.first() {
        let first = &text[s..e];
        let cut = after_closing_form(first).or_else(|| {
            details_comma(first)
                .filter(|&at| !is_address_like(&first[..at]))
                .map(|at| {
                    let after = &first[at + 1..];
                    (at, at + 1 + after.len() - after.trim_start().len())
                })
        });
        if let Some(cut) = cut {
            parts.splice(0..1, [(s, s + cut.0), (s + cut.1, e)]);
        }
    }
    let addressy = parts
        .iter()
        .skip(1)
        .any(|&(s, e)| is_address_like(&text[s..e]));
    (parts.len() >= 2 && addressy && letters(&text[parts[0].0..parts[0].1]) >= 3).then_some(parts)
}

/// A register line's address part cut before the first id printed in it (`Industrivej 3. 8000
/// Aarhus C. CVR-nr. DK77455248`, whose separators OCR read as full stops).
fn before_ids(part: &Span) -> Span {
    let t = &part.text;
    // A VAT's label before a VAT id (`BTW BE0976821672`) is the id's.
    let vat_id_after = |h: &labels::LabelHit| {
        ids::find_vat_ids(&t[h.end..]).first().is_some_and(|m| {
            t[h.end..h.end + m.start]
                .trim_matches([' ', ':', '.'])
                .is_empty()
        })
    };
    let id = labels::find_labels(t).into_iter().find(|h| {
        h.word > 0
            && (h.key.is_tax_id()
                || matches!(h.key, LabelKey::Phone | LabelKey::Email | LabelKey::Iban)
                || h.key == LabelKey::Vat && vat_id_after(h))
    });
    match id {
        Some(h) => {
            let head =
                t[..h.start].trim_end_matches(|c: char| c.is_whitespace() || ".,;:·|-".contains(c));
            if letters(head) >= 3 && is_address_like(head) {
                sub_span(part, 0, head.len())
            } else {
                part.clone()
            }
        }
        None => part.clone(),
    }
}

/// The name on a block's head line: the first part of a sender line (`Firma GmbH - Straße 1 -
/// 12345 Ort`), else the line cut before its address or id details.
fn head_name(head: &Segment) -> Span {
    match sender_parts(&head.text) {
        Some(parts) => sub_span(head, parts[0].0, parts[0].1),
        None => match glued_split(head) {
            Some((end, _)) => sub_span(head, 0, end),
            None => cut_details(head),
        },
    }
}

/// Whether a line prints a party's name and its address: a sender line, or a name its legal
/// form closes before the address ([`glued_split`]).
fn one_line_party(head: &Segment) -> bool {
    sender_parts(&head.text).is_some() || glued_split(head).is_some()
}

/// Where a line that is no sender line prints a name its legal form closes before an address,
/// the separators lost (`Inštalácie Baláž k.s. Štúrova 55 974 01 Banská Bystrica .IČ DPH SK…`,
/// a register line whose dots OCR lost): the name's end and the address's start, after the name
/// is cut at its details ([`cut_details`]). Callers rule out sender lines first.
fn glued_split(head: &Segment) -> Option<(usize, usize)> {
    let name = cut_details(head);
    after_closing_form(&name.text)
}

/// The address of a block whose name stands on `head`: the address parts after the name when
/// `head` is a sender line, or the address the name's line prints after its legal form
/// ([`glued_split`]), else the address run of the lines `below` it.
fn head_address(head: Option<&Segment>, below: &[Segment]) -> Vec<(String, Span)> {
    let Some(h) = head else {
        return address_run(below);
    };
    match sender_parts(&h.text) {
        Some(parts) => {
            let inline: Vec<(String, Span)> = parts[1..]
                .iter()
                .map(|&(s, e)| sub_span(h, s, e))
                .filter(|s| is_address_like(&s.text))
                .map(|s| before_ids(&s))
                .map(|s| (clean_text(&s.text), s))
                .collect();
            if inline.is_empty() {
                address_run(below)
            } else {
                inline
            }
        }
        // The address the name's line prints after its legal form, before its ids.
        None => match glued_split(h) {
            Some((_, start)) => {
                let rest = before_ids(&sub_span(h, start, h.text.len()));
                vec![(clean_text(&rest.text), rest)]
            }
            None => address_run(below),
        },
    }
}

/// Unlabelled address blocks in the upper half of the first page, and the sender lines above
/// them.
fn windows(p: &Page<'_>, taken: &[PartyCandidate], out: &mut Vec<PartyCandidate>) {
    let Some(first) = p.doc.pages.first() else {
        return;
    };
    for b in window_groups(p) {
        let b = &b;
        if b.page != first.page
            || b.bbox.y0 > first.height * 0.5
            || b.bbox.y0 < first.height * 0.05
            || !(2..=7).contains(&b.segments.len())
        {
            continue;
        }
        let segs: Vec<&Segment> = b.segments.iter().map(|&i| &p.segs[i]).collect();
        if segs
            .iter()
            .any(|s| taken.iter().any(|c| c.contains(s)) || party_label(s).is_some())
        {
            continue;
        }
        let mut lines: Vec<Segment> = segs.iter().map(|s| (*s).clone()).collect();
        // A sender line at the top of the window (or just above it) names the seller.
        let spaced = spaced_sender(p, &lines[0], lines.get(1));
        let sender_at = if sender_parts(&lines[0].text).is_some() || spaced.is_some() {
            Some(lines.remove(0))
        } else {
            sender_above(p, b)
        };
        // The name: a sender line's first part, or the first column of one set in columns.
        if let Some(sl) = &sender_at
            && let Some(span) = sender_parts(&sl.text)
                .map(|parts| sub_span(sl, parts[0].0, parts[0].1))
                .or_else(|| spaced.clone())
        {
            out.push(PartyCandidate {
                role: LabelKey::Seller,
                source: PartySource::SenderLine,
                name: Some((clean_text(&span.text), span)),
                address: Vec::new(),
                region: vec![sl.clone()],
                label_line: None,
            });
        }
        // A document's title printed at the top of the block (`Kassebon` over a shop's name)
        // is no line of the name.
        while lines.len() > 1 && super::titles::title_phrase(&lines[0].text) {
            lines.remove(0);
        }
        let postcode = lines.iter().any(|s| POSTCODE.is_match(&s.text));
        let streets = lines.iter().filter(|s| is_address_like(&s.text)).count();
        if lines.len() < 2 || !(postcode || streets >= 2) {
            continue;
        }
        if lines.iter().any(|s| ends_section_text(&s.text)) {
            continue;
        }
        let (name, address) = name_and_address(&lines);
        let Some((_, name_span)) = &name else {
            continue;
        };
        let region = until_next_party(lines, name_span);
        out.push(PartyCandidate {
            role: LabelKey::Buyer,
            source: PartySource::AddressWindow,
            name,
            address,
            region,
            label_line: None,
        });
    }
}

/// A sender line set in columns over an address window (`UAB "Prekyba Nord"   Konstitucijos
/// pr. 179   LT-01103 Vilnius`): the window's first segment opens a line of several segments,
/// the later ones address-like, printed smaller than the window's next line. Returns that first
/// segment (the sender's name).
fn spaced_sender(p: &Page<'_>, first: &Segment, next: Option<&Segment>) -> Option<Segment> {
    let next = next?;
    let on_line: Vec<&Segment> = p.line_segs(first.line).collect();
    let opens = on_line.first().is_some_and(|s| s.start == first.start);
    let addressy = on_line.iter().skip(1).any(|s| is_address_like(&s.text));
    (on_line.len() >= 2
        && opens
        && addressy
        && first.bbox.height() < 0.9 * next.bbox.height()
        && letters(&first.text) >= 3)
        .then(|| first.clone())
}

/// Most blocks after a block searched for its continuation. Blocks come top to bottom and the
/// continuation starts within about two lines of the block's end, with a few dozen blocks in
/// between on a printed page; the bound keeps a page of thousands of blocks side by side (a
/// spreadsheet row of thousands of cells) linear.
const WINDOW_LOOKAHEAD: usize = 512;

/// Blocks of the page, with left-aligned blocks less than about two lines apart merged: address
/// windows are often set with an empty line between street and town.
fn window_groups(p: &Page<'_>) -> Vec<Block> {
    let mut out: Vec<Block> = Vec::new();
    let mut merged = vec![false; p.blocks.len()];
    for (i, b) in p.blocks.iter().enumerate() {
        if merged[i] {
            continue;
        }
        let mut cur = b.clone();
        loop {
            let last = &p.segs[*cur.segments.last().expect("non-empty block")];
            let h = last.bbox.height().max(1.0);
            let next = p
                .blocks
                .iter()
                .enumerate()
                .skip(i + 1)
                .take(WINDOW_LOOKAHEAD)
                .find(|(j, o)| {
                    let top = &p.segs[o.segments[0]];
                    !merged[*j]
                        && o.page == cur.page
                        && top.line > last.line
                        && top.bbox.y0 - last.bbox.y1 >= 0.0
                        && top.bbox.y0 - last.bbox.y1 <= 2.2 * h
                        && (top.bbox.x0 - last.bbox.x0).abs() <= 1.5 * h.min(top.bbox.height())
                });
            match next {
                Some((j, o)) if cur.segments.len() + o.segments.len() <= 7 => {
                    merged[j] = true;
                    cur.segments.extend(o.segments.iter().copied());
                    cur.bbox = cur.bbox.union(&o.bbox);
                }
                _ => break,
            }
        }
        out.push(cur);
    }
    out
}

fn ends_section_text(text: &str) -> bool {
    labels::find_labels(text)
        .iter()
        .filter(|h| h.key.is_column() || h.key.is_totals() || h.key == LabelKey::Title)
        .count()
        >= 1
        && !is_address_like(text)
}

/// A sender line right above a block (small print, separators, an address).
fn sender_above(p: &Page<'_>, b: &Block) -> Option<Segment> {
    let top = &p.segs[*b.segments.first()?];
    let h = top.bbox.height().max(1.0);
    let line = top.line.checked_sub(1)?;
    p.line_segs(line)
        .find(|s| {
            s.page == top.page
                && top.bbox.y0 - s.bbox.y1 < 2.5 * h
                && s.bbox.h_overlap(&top.bbox) > 0.3
                && sender_parts(&s.text).is_some()
        })
        .cloned()
}

/// The letterhead as a candidate, with the rest of its layout block as address and region.
fn letterhead_candidate(p: &Page<'_>) -> Option<PartyCandidate> {
    let name = letterhead(p.doc)?;
    let block = p.blocks.iter().find(|b| {
        b.segments.iter().any(|&i| {
            let s = &p.segs[i];
            s.line == name.line && s.start < name.end.max(name.start + 1) && name.start < s.end
        })
    });
    let mut region = vec![name.clone()];
    let mut below: Vec<Segment> = Vec::new();
    if let Some(b) = block {
        for &i in &b.segments {
            let s = &p.segs[i];
            // Lines above the name or part of it (a name printed over two lines).
            if s.line == name.line || s.bbox.y0 < name.bbox.y0 || in_name(s, &name) {
                continue;
            }
            // Evenly spaced office documents put everything in one block: the letterhead ends
            // at a party label, a title or a document field (`Invoice No.:`).
            let doc_field = !is_address_like(&s.text)
                && labels::find_labels(&s.text).first().is_some_and(|h| {
                    h.word == 0
                        && matches!(
                            h.key,
                            LabelKey::Number
                                | LabelKey::Date
                                | LabelKey::DueDate
                                | LabelKey::Order
                                | LabelKey::Contract
                                | LabelKey::Corrects
                                | LabelKey::CustomerNumber
                        )
                });
            if party_label(s).is_some() || boilerplate(&s.text) || doc_field {
                break;
            }
            region.push(s.clone());
            below.push(s.clone());
        }
    }
    // A sender-line letterhead prints its address after the name on the same line.
    let on_line = p
        .line_segs(name.line)
        .find(|s| s.start <= name.start && name.start < s.end.max(s.start + 1));
    let address = head_address(on_line, &below);
    Some(PartyCandidate {
        role: LabelKey::Seller,
        source: PartySource::Letterhead,
        name: Some((clean_text(&name.text), name)),
        address,
        region,
        label_line: None,
    })
}

/// The address among the lines under a name: from the first to the last address-like line of the
/// next six (lines in between belong to it: `KAWASAN PERINDUSTRIAN BALAKONG`), without id lines.
fn address_run(lines: &[Segment]) -> Vec<(String, Span)> {
    // The run ends at the document's title or at a line with its number and its date
    // (`Dowód dostawy Numer S041350, Data wystawienia: 2025-06-03`).
    let document_line = |s: &Segment| {
        let hits = labels::find_labels(&s.text);
        let has = |keys: &[LabelKey]| hits.iter().any(|h| keys.contains(&h.key));
        has(&[LabelKey::Title])
            || (has(&[LabelKey::Number, LabelKey::NumberGeneric])
                && has(&[LabelKey::Date, LabelKey::DateWeak]))
    };
    let mut window: Vec<&Segment> = lines
        .iter()
        .take(6)
        .take_while(|s| !document_line(s))
        .collect();
    let addressy = |s: &Segment| address_line(&s.text);
    let Some(mut a) = window.iter().position(|s| addressy(s)) else {
        return Vec::new();
    };
    // A line with a date after the address (`Protokół odbioru Numer 2024-83249, Vamagu:
    // 2024-02-27`, the label unknown) holds a document's fields: the address ended above it.
    if let Some(k) = window[a + 1..]
        .iter()
        .position(|s| !dates::find_dates(&s.text, false).is_empty())
    {
        window.truncate(a + 1 + k);
    }
    // The street line over a postcode line, its street word in no list (`Zona Industrial, lote
    // 23` / `3000-150 Coimbra`): a short line with a number and no label or key (`CompanyNo:
    // 256628-W`, its label glued).
    let street_shaped = |t: &str| {
        t.chars().any(|c| c.is_ascii_digit())
            && !digit_heavy(t)
            && letters(t) >= 3
            && labels::norm_words(t).len() <= 6
            && labels::find_labels(t).is_empty()
            && !is_company_like(t)
            && !opening_hours(t)
            && !t.contains(['@', ':'])
    };
    if a > 0 && POSTCODE.is_match(&window[a].text) && street_shaped(&window[a - 1].text) {
        a -= 1;
    }
    // A company's name after the address begins the next party (`Váci út 146., 9021 Győr` /
    // `Kovács Nyomda Bt.` / its address).
    if let Some(k) = window[a + 1..].iter().position(|s| begins_next_party(s)) {
        window.truncate(a + 1 + k);
    }
    let Some(b) = window.iter().rposition(|s| addressy(s)) else {
        return Vec::new();
    };
    // Town and country lines after the street (`Springfield, IL 62701`, `USA`); opening hours
    // end the address.
    let tail = window[b + 1..]
        .iter()
        .take_while(|s| {
            labels::norm_words(&s.text).len() <= 4
                && letters(&s.text) >= 2
                && !is_id_line(&s.text)
                && !is_party_id_line(&s.text)
                && !is_company_like(&s.text)
                && !opening_hours(&s.text)
        })
        .take(2)
        .count();
    // The party ids printed after the address on its line (`…, 8000 Aarhus C, SE-nr.
    // DK45377059`) are no part of it, nor of the digit count (`146 Shop Street, Dublin 2, VAT
    // Reg. No. IE1777544K`); `50667 Köln` has more digits than letters and is still an address.
    window[a..=b + tail]
        .iter()
        .filter(|s| !is_id_line(&s.text))
        .map(|s| (without_party_ids(&s.text), (*s).clone()))
        .filter(|(t, _)| !t.is_empty() && (!digit_heavy(t) || POSTCODE.is_match(t)))
        .collect()
}

/// A line of a postal address: address-like, and neither an id line nor opening hours.
fn address_line(text: &str) -> bool {
    is_address_like(text) && !is_id_line(text) && !opening_hours(text)
}

/// A line that prints an international phone number under a key of one word or two that no
/// vocabulary knows (`Те!: +30 994 976 593`, OCR's `!` for `л`): a contact, no address.
fn phone_line(text: &str) -> bool {
    let phones = ids::find_intl_phones(text);
    let [(s, e)] = phones.as_slice() else {
        return false;
    };
    let (before, after) = (&text[..*s], &text[*e..]);
    !before
        .chars()
        .chain(after.chars())
        .any(|c| c.is_ascii_digit())
        && before.split_whitespace().count() + after.split_whitespace().count() <= 2
}

/// A line of opening hours (`SHOPPING HOURS`, `Öffnungszeiten: Mo-Fr 8-18 Uhr`, `SUN-THU:
/// 1000 HRS - 2200 HRS`): a heading word of many languages, or a range of times or weekdays.
fn opening_hours(text: &str) -> bool {
    static HOURS: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(concat!(
            r"(?i)\b(?:opening|shopping|business|office|trading)\s+hours\b|\bhrs\b|",
            r"öffnungszeiten|geschäftszeiten|horaires?\s+d.ouverture|godziny\s+otwarcia|",
            r"orari\s+di\s+apertura|\borario\b|horario|openingstijden|öppettider|",
            r"åbningstider|åpningstider|aukioloajat|nyitvatartás|otevírací\s+doba|",
            r"otváracie\s+hodiny|darbo\s+laikas|darba\s+laiks|lahtiolekuajad|",
            r"program(?:ul)?\s+de\s+lucru|режим\s+работы|графік\s+роботи|",
            // `10:00 - 22:00`, `1000 HRS`, `8-18 Uhr` (a postcode `1100-053` is no range)
            r"\b[0-2]?[0-9][:.][0-5][0-9]\s*[-–]\s*[0-2]?[0-9][:.][0-5][0-9]\b|",
            r"\b[0-2][0-9][0-5][0-9]\s*hrs?\b|",
            r"\b[0-2]?[0-9]\s*[-–]\s*[0-2]?[0-9]\s*(?:uhr|h)\b|",
            // `MON-FRI`, `Mo-Fr`, `lun-ven`
            r"\b(?:mon|tue|wed|thu|fri|sat|sun|mo|di|mi|do|fr|sa|so|lun|mar|mer|jeu|ven|sam|dim)\s*[-–]\s*",
            r"(?:mon|tue|wed|thu|fri|sat|sun|mo|di|mi|do|fr|sa|so|lun|mar|mer|jeu|ven|sam|dim)\b"
        ))
        .expect("opening hours regex")
    });
    HOURS.is_match(text)
}

/// The block around each tax id outside every labelled section, as a seller candidate named by
/// its first company-like line.
fn id_blocks(p: &Page<'_>, taken: &[PartyCandidate], out: &mut Vec<PartyCandidate>) {
    for b in &p.blocks {
        let segs: Vec<&Segment> = b.segments.iter().map(|&i| &p.segs[i]).collect();
        let has_id = segs.iter().any(|s| {
            labels::find_labels(&s.text)
                .iter()
                .any(|h| h.key.is_tax_id() || h.key == LabelKey::Iban)
        });
        if !has_id || segs.iter().any(|s| taken.iter().any(|c| c.contains(s))) {
            continue;
        }
        // A register line (`Name · Street · Town · VAT id`) is judged by its name part.
        let Some(n) = segs.iter().find(|s| {
            let t = head_name(s).text;
            is_company_like(&t) && !is_id_line(&t) && !digit_heavy(&t) && !boilerplate(&t)
        }) else {
            continue;
        };
        let mut name = head_name(n);
        // A legal form alone over the name (`ИП` / `Соколов К.Г.`).
        if lone_form(&name.text)
            && let Some(below) = next_in_column(&segs, n, true)
            && begins_name(&name.text, &below.text)
        {
            name = merge_spans(&name, below);
        }
        // A name begun on the line above (`Garcia & Fernandez` / `S.L.`).
        if let Some(above) = next_in_column(&segs, n, false) {
            let (above, below) = ampersand_at_break(above, &name);
            if begins_name(&above.text, &below.text) {
                name = merge_spans(&above, &below);
            }
        }
        let below: Vec<Segment> = segs
            .iter()
            .filter(|s| s.bbox.y0 > n.bbox.y0 && s.line != n.line && !in_name(s, &name))
            .map(|s| (*s).clone())
            .collect();
        let address = head_address(Some(n), &below);
        let region = until_next_party(segs.into_iter().cloned().collect(), &name);
        out.push(PartyCandidate {
            role: LabelKey::Seller,
            source: PartySource::IdBlock,
            name: Some((clean_text(&name.text), name)),
            address,
            region,
            label_line: None,
        });
    }
}

/// The segment of `segs` printed right below (or above) `n` in its column: overlapping it
/// across, less than a line's height away.
fn next_in_column<'s>(segs: &[&'s Segment], n: &Segment, below: bool) -> Option<&'s Segment> {
    let h = n.bbox.height().max(1.0);
    let near = segs.iter().copied().filter(|s| {
        let gap = if below {
            s.line > n.line && s.bbox.y0 - n.bbox.y1 < h
        } else {
            s.line < n.line && n.bbox.y0 - s.bbox.y1 < h
        };
        gap && s.bbox.x0 < n.bbox.x1 && n.bbox.x0 < s.bbox.x1
    });
    if below {
        near.min_by_key(|s| s.line)
    } else {
        near.max_by_key(|s| s.line)
    }
}

/// Every party candidate of a document, labelled ones first (in document order).
pub fn find(doc: &CleanDocument) -> Vec<PartyCandidate> {
    find_on(&Page::new(doc))
}

/// The party candidates ([`find`]) and the addresses printed without a name, outside their
/// labelled sections, from one reading of the page layout: register lines at the head of the
/// first page or the foot of the last (`Brīvības iela 66 · LV-3001 Jelgava · PVN Nr. LV4047…`)
/// and blocks of address lines near the top of the first page (a receipt's head set as name,
/// registration lines, then the address). The addresses are nameless seller candidates
/// ([`PartySource::IdBlock`]): the address of a party whose letterhead is only a name or a
/// logo, or is set apart from its address; they are kept apart from the party candidates,
/// which the learned scorer ranks by name.
pub fn find_with_addresses(doc: &CleanDocument) -> (Vec<PartyCandidate>, Vec<PartyCandidate>) {
    let p = Page::new(doc);
    let parties = find_on(&p);
    let labelled: Vec<&PartyCandidate> =
        parties.iter().filter(|c| c.label_line.is_some()).collect();
    let mut addresses = register_lines(&p, &labelled);
    addresses.extend(address_blocks(&p, &labelled));
    (parties, addresses)
}

/// The party candidates of a page layout ([`find`]).
fn find_on(p: &Page<'_>) -> Vec<PartyCandidate> {
    let mut out: Vec<PartyCandidate> = Vec::new();
    for si in 0..p.segs.len() {
        if let Some(c) = labelled(p, si) {
            out.push(c);
        }
    }
    let labelled_count = out.len();
    if let Some(lh) = letterhead_candidate(p)
        && !out
            .iter()
            .any(|c| lh.name.as_ref().is_some_and(|(_, s)| c.contains(s)))
    {
        out.push(lh);
    }
    let taken: Vec<PartyCandidate> = out[..labelled_count].to_vec();
    windows(p, &taken, &mut out);
    id_blocks(p, &taken, &mut out);
    plain_blocks(p, &mut out);
    out
}

/// A seller candidate of an address printed without a name.
fn nameless_seller(address: Vec<(String, Span)>, region: Vec<Segment>) -> PartyCandidate {
    PartyCandidate {
        role: LabelKey::Seller,
        source: PartySource::IdBlock,
        name: None,
        address,
        region,
        label_line: None,
    }
}

/// Register lines without a name at the head of the first page or the foot of the last,
/// outside the `labelled` sections ([`find_with_addresses`]).
fn register_lines(p: &Page<'_>, labelled: &[&PartyCandidate]) -> Vec<PartyCandidate> {
    let mut out = Vec::new();
    let (Some(first), Some(last)) = (p.doc.pages.first(), p.doc.pages.last()) else {
        return out;
    };
    for seg in &p.segs {
        let head = seg.page == first.page && seg.bbox.y0 < first.height * 0.15;
        let foot = seg.page == last.page && seg.bbox.y0 > last.height * 0.7;
        if !(head || foot) || labelled.iter().any(|c| c.contains(seg)) {
            continue;
        }
        let Some(parts) = sender_parts(&seg.text) else {
            continue;
        };
        let pieces: Vec<Span> = parts.iter().map(|&(s, e)| sub_span(seg, s, e)).collect();
        // Every part is an address or an id: a part that may name a party makes it a sender
        // line, whose name other sources take.
        let nameless = pieces
            .iter()
            .all(|x| is_address_like(&x.text) || is_id_line(&x.text) || is_party_id_line(&x.text));
        let address: Vec<(String, Span)> = pieces
            .into_iter()
            .filter(|x| is_address_like(&x.text) && !is_id_line(&x.text))
            .map(|x| (clean_text(&x.text), x))
            .collect();
        if !nameless || address.is_empty() || !is_address_like(&seg.text[parts[0].0..parts[0].1]) {
            continue;
        }
        out.push(nameless_seller(address, vec![seg.clone()]));
    }
    out
}

/// Blocks of address lines without a name near the top of the first page (a receipt's head set
/// as name, registration lines, then the address, with gaps between), outside the `labelled`
/// sections ([`find_with_addresses`]).
fn address_blocks(p: &Page<'_>, labelled: &[&PartyCandidate]) -> Vec<PartyCandidate> {
    let mut out = Vec::new();
    let Some(first) = p.doc.pages.first() else {
        return out;
    };
    for b in &p.blocks {
        if b.page != first.page || b.bbox.y0 > first.height * 0.35 || b.segments.len() > 6 {
            continue;
        }
        let segs: Vec<Segment> = b.segments.iter().map(|&i| p.segs[i].clone()).collect();
        let opens_with_address = segs.first().is_some_and(|s| address_line(&s.text));
        if !opens_with_address
            || segs
                .iter()
                .any(|s| is_company_like(&s.text) || labelled.iter().any(|c| c.contains(s)))
            || sender_parts(&segs[0].text).is_some()
        {
            continue;
        }
        // A postcode and its town make it an address (`PCS  st.  1.20`, an item line with a
        // unit, is none).
        let address = address_run(&segs);
        if !address.iter().any(|a| POSTCODE.is_match(&a.0)) {
            continue;
        }
        out.push(nameless_seller(address, segs));
    }
    out
}

/// Most [`PartySource::Block`] candidates of a document (blocks are taken top to bottom).
const MAX_BLOCKS: usize = 40;

/// Whether a segment may start a party name: meaningful text that is no key, label, title,
/// boilerplate, sentence or number.
fn may_name(text: &str) -> bool {
    let t = text.trim();
    let party = labels::find_labels(t)
        .first()
        .is_some_and(|h| h.word == 0 && h.key.is_party() && stands_alone(t, h.end));
    meaningful(t)
        && !boilerplate(t)
        && !sentence_like(t)
        && !digit_heavy(&without_parens(t))
        && !t.ends_with(':')
        && !party
        && !is_address_like(t)
}

/// Short blocks of the first page and of the foot of the last page as candidates: the name is
/// the first segment that may name a party (the first part of a `name · street · town` line),
/// alone and, when the next segment is neither address nor id, joined with it; the address is
/// the block's address run.
fn plain_blocks(p: &Page<'_>, out: &mut Vec<PartyCandidate>) {
    let (Some(first), Some(last)) = (p.doc.pages.first(), p.doc.pages.last()) else {
        return;
    };
    let mut added = 0;
    for b in &p.blocks {
        let foot = b.page == last.page && b.bbox.y0 > last.height * 0.7;
        if (b.page != first.page && !foot) || b.segments.len() > 8 || added >= MAX_BLOCKS {
            continue;
        }
        let segs: Vec<Segment> = b.segments.iter().map(|&i| p.segs[i].clone()).collect();
        let Some(at) = segs
            .iter()
            .take(3)
            .position(|s| may_name(&head_name(s).text))
        else {
            continue;
        };
        // Two or more `Key:  Company name` rows under keys the vocabulary does not know
        // (`Kitu:  Nord Kft.` / its address / `Matobu:  Kovács Bt.` / its address): each
        // row begins a party of its own.
        let keyed = keyed_names(p, &segs);
        if keyed.len() >= 2 {
            for (k, &start) in keyed.iter().enumerate() {
                let end = keyed.get(k + 1).copied().unwrap_or(segs.len());
                added += block_variants(&segs[start..end], 0, None, out);
            }
            continue;
        }
        // A sender line on top of a window names the sender; the lines under it are the
        // addressee's, a block of their own.
        let addressee = one_line_party(&segs[at])
            .then(|| {
                segs[at + 1..]
                    .iter()
                    .take(3)
                    .position(|s| may_name(&head_name(s).text))
            })
            .flatten()
            .map(|k| at + 1 + k);
        // A register line of the foot set in columns (`Name   Street 1   12345 Town   VAT id`,
        // the dots between them lost to OCR or never printed) gives the name its address.
        // Its other segments join the region (the ids printed there).
        let columned = foot.then(|| columned_register(p, &segs[at])).flatten();
        match (addressee, columned) {
            (Some(second), _) => {
                added += block_variants(&segs[..second], at, None, out);
                added += block_variants(&segs[second..], 0, None, out);
            }
            (None, Some((address, others))) => {
                let mut region = segs.clone();
                region.extend(others.into_iter().filter(|o| !segs.contains(o)));
                added += block_variants(&region, at, Some(address), out);
            }
            (None, None) => added += block_variants(&segs, at, None, out),
        }
    }
}

/// An address read into its lines: each line's text and where it was printed.
type AddressLines = Vec<(String, Span)>;

/// The address of a register line set in columns whose first segment is `head`: the line holds
/// two or more segments after it, each an address part or a party's id or contact, one at least
/// an address part; the address parts, in order, and all the segments after `head`.
fn columned_register(p: &Page<'_>, head: &Segment) -> Option<(AddressLines, Vec<Segment>)> {
    let mut on_line = p.line_segs(head.line);
    if on_line.next()?.start != head.start {
        return None;
    }
    let rest: Vec<&Segment> = on_line.collect();
    let id = |t: &str| is_id_line(t) || is_party_id_line(t);
    if rest.len() < 2 || !rest.iter().all(|s| is_address_like(&s.text) || id(&s.text)) {
        return None;
    }
    let address: Vec<(String, Span)> = rest
        .iter()
        .filter(|s| is_address_like(&s.text) && !is_id_line(&s.text))
        .map(|s| (clean_text(&s.text), (*s).clone()))
        .collect();
    (!address.is_empty()).then(|| (address, rest.into_iter().cloned().collect()))
}

/// The segments of a block that are company names printed after a key on their line
/// (`Kitu:  Nord Villamossági Kft.`): the nearest segment left of the name a lone word or two
/// ending in `:`. Indices into `segs`.
fn keyed_names(p: &Page<'_>, segs: &[Segment]) -> Vec<usize> {
    let lone_key = |t: &str| {
        let t = t.trim();
        t.ends_with(':') && (1..=2).contains(&labels::norm_words(t).len()) && letters(t) >= 3
    };
    (0..segs.len())
        .filter(|&k| {
            let name = &segs[k];
            let key = p
                .line_segs(name.line)
                .filter(|s| s.bbox.x1 <= name.bbox.x0)
                .max_by(|a, b| a.bbox.x1.total_cmp(&b.bbox.x1));
            key.is_some_and(|key| lone_key(&key.text))
                && is_company_like(&name.text)
                && !is_address_like(&name.text)
        })
        .collect()
}

/// The [`PartySource::Block`] candidates of a block (its segments `segs`, the region) whose name
/// starts at segment `at`, with the address `inline` where the name's own line gives it (else the
/// block's address run): the name alone and, when the next segment is neither address nor id
/// (or is a legal form's tail, `a.s.`), joined with it. Returns how many were added.
fn block_variants(
    segs: &[Segment],
    at: usize,
    inline: Option<Vec<(String, Span)>>,
    out: &mut Vec<PartyCandidate>,
) -> usize {
    let mut added = 0;
    let head = &segs[at];
    let name = head_name(head);
    let rest = &segs[at + 1..];
    let address = inline.unwrap_or_else(|| head_address(Some(head), rest));
    let mut variants = vec![name.clone()];
    if let Some(next) = rest.first()
        && !one_line_party(head)
        && (may_name(&next.text) || is_legal_tail(&next.text))
        && !quoted_whole(&next.text)
        && !is_id_line(&next.text)
        && !is_party_id_line(&next.text)
    {
        let joined = merge_spans(&name, next);
        // A name that leaves a quote or bracket open which the next line closes (`IK
        // "Tipogrāfija` / `Krūmiņš"`) is only the two lines together.
        if leaves_open(&name.text) && !leaves_open(&joined.text) {
            variants.clear();
        }
        variants.push(joined);
    }
    for v in variants {
        let text = clean_text(&v.text);
        // A name another source found stays a candidate as a plain block too (the other
        // source may have suggested the wrong role); only plain blocks are deduplicated.
        let known = out.iter().any(|c| {
            c.source == PartySource::Block
                && c.name
                    .as_ref()
                    .is_some_and(|(n, _)| n.eq_ignore_ascii_case(&text))
        });
        if known || letters(&text) < 3 {
            continue;
        }
        added += 1;
        out.push(PartyCandidate {
            role: LabelKey::Seller,
            source: PartySource::Block,
            name: Some((text, v)),
            address: address.clone(),
            region: segs.to_vec(),
            label_line: None,
        });
    }
    added
}

/// A piece of a span: `start..end` are byte offsets in the span's text; the box is narrowed in
/// proportion to the characters.
fn sub_span(span: &Span, start: usize, end: usize) -> Span {
    let text = span.text.get(start..end).unwrap_or("").to_string();
    let w = span.bbox.width();
    let n = span.text.chars().count().max(1) as f32;
    let c0 = span.text[..start.min(span.text.len())].chars().count() as f32;
    let c1 = span.text[..end.min(span.text.len())].chars().count() as f32;
    Span {
        page: span.page,
        line: span.line,
        start: span.start + start,
        end: span.start + end,
        bbox: BBox::new(
            span.bbox.x0 + w * c0 / n,
            span.bbox.y0,
            span.bbox.x0 + w * c1 / n,
            span.bbox.y1,
        ),
        text,
        confidence: span.confidence,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::candidates::tests::page_doc;
    use crate::clean;
    use crate::types::{Source, TextPage, Unit, Word};

    /// Words of `text` from `x` on, 5 units per character, 4 between words, 10 high.
    fn line_words(text: &str, x: f32, y: f32) -> Vec<Word> {
        let mut out = Vec::new();
        let mut x = x;
        for t in text.split(' ') {
            let x1 = x + t.chars().count() as f32 * 5.0;
            out.push(Word {
                text: t.into(),
                bbox: BBox::new(x, y, x1, y + 10.0),
                confidence: 1.0,
            });
            x = x1 + 4.0;
        }
        out
    }

    fn doc(rows: &[(&str, f32, f32)]) -> CleanDocument {
        page_doc(
            rows.iter()
                .flat_map(|&(t, x, y)| line_words(t, x, y))
                .collect(),
        )
    }

    fn names(c: &[PartyCandidate], role: LabelKey) -> Vec<(PartySource, String)> {
        c.iter()
            .filter(|c| c.role == role)
            .filter_map(|c| c.name.as_ref().map(|(n, _)| (c.source, n.clone())))
            .collect()
    }

    /// The address lines of a candidate.
    fn lines_of(c: &PartyCandidate) -> Vec<&str> {
        c.address.iter().map(|a| a.0.as_str()).collect()
    }

    /// The address lines of the first candidate from `source`.
    fn address_of(c: &[PartyCandidate], source: PartySource) -> Vec<&str> {
        lines_of(c.iter().find(|c| c.source == source).expect("a candidate"))
    }

    /// A tax's word is no name's, also where it names a column; other column words may be.
    #[test]
    fn a_tax_column_is_no_name() {
        assert!(!meaningful("с НДС"));
        assert!(!meaningful("incl. VAT"));
        assert!(meaningful("Preis Consulting GmbH"));
    }

    #[test]
    fn two_labelled_columns() {
        let d = doc(&[
            ("Verkäufer", 40.0, 100.0),
            ("Käufer", 320.0, 100.0),
            ("Lieferant GmbH", 40.0, 114.0),
            ("Kunden AG Mitte", 320.0, 114.0),
            ("Lieferantenstraße 20", 40.0, 128.0),
            ("Kundenstraße 15", 320.0, 128.0),
            ("80333 München", 40.0, 142.0),
            ("69876 Frankfurt", 320.0, 142.0),
            ("USt-IdNr. DE123456789", 40.0, 156.0),
            ("Pos Beschreibung Menge Preis Betrag", 40.0, 260.0),
        ]);
        let c = find(&d);
        let seller = c.iter().find(|c| c.role == LabelKey::Seller).unwrap();
        assert_eq!(seller.source, PartySource::Labelled);
        assert_eq!(seller.name.as_ref().unwrap().0, "Lieferant GmbH");
        let addr: Vec<&str> = seller.address.iter().map(|a| a.0.as_str()).collect();
        assert_eq!(addr, ["Lieferantenstraße 20", "80333 München"]);
        assert!(seller.region.iter().any(|s| s.text.contains("DE123456789")));
        let buyer = c.iter().find(|c| c.role == LabelKey::Buyer).unwrap();
        assert_eq!(buyer.name.as_ref().unwrap().0, "Kunden AG Mitte");
        assert!(!buyer.region.iter().any(|s| s.text.contains("DE123456789")));
    }

    /// A block's name that leaves a quote open, closed on the next line, is only the two lines
    /// together.
    #[test]
    fn a_block_name_open_at_its_quote_is_one_name_over_two_lines() {
        let blocks = |second: &str| -> Vec<String> {
            let d = doc(&[
                (
                    "SIA Transports Nord · Brīvības iela 159 · LV-3001 Jelgava",
                    300.0,
                    96.0,
                ),
                ("IK \"Tipogrāfija", 300.0, 107.0),
                (second, 300.0, 119.0),
                ("Brīvības iela 175", 300.0, 131.0),
                ("LV-3601 Ventspils", 300.0, 143.0),
                ("Preču pavadzīme-rēķins", 300.0, 200.0),
            ]);
            names(&find(&d), LabelKey::Seller)
                .into_iter()
                .filter(|(s, _)| *s == PartySource::Block)
                .map(|(_, n)| n)
                .collect()
        };
        let got = blocks("Krūmiņš\"");
        assert!(
            got.contains(&"IK \"Tipogrāfija Krūmiņš\"".to_string()),
            "{got:?}"
        );
        assert!(!got.contains(&"IK \"Tipogrāfija".to_string()), "{got:?}");
    }

    /// Contact lines between the name and the street are no address; the town line after a
    /// blank line under the street still is.
    #[test]
    fn a_labelled_address_skips_contacts_and_keeps_its_town_after_a_gap() {
        let seller_address = |rows: &[(&str, f32, f32)]| {
            let c = find(&doc(rows));
            let seller = c
                .iter()
                .find(|c| c.role == LabelKey::Seller && c.label_line.is_some())
                .expect("a labelled seller")
                .clone();
            (
                seller.name.map(|n| n.0),
                seller.address.into_iter().map(|a| a.0).collect::<Vec<_>>(),
            )
        };
        let (name, address) = seller_address(&[
            ("Verkäufer:", 40.0, 100.0),
            ("Elektron Industrieservice GmbH", 40.0, 114.0),
            ("Max Mustermann", 40.0, 125.0),
            ("Muster-Einkauf", 40.0, 136.0),
            ("Erfurter Strasse 13", 40.0, 147.0),
            ("DE 74465 Demoort", 40.0, 158.0),
            ("Pos Beschreibung Menge Preis Betrag", 40.0, 260.0),
        ]);
        assert_eq!(name.as_deref(), Some("Elektron Industrieservice GmbH"));
        assert_eq!(address, ["Erfurter Strasse 13", "DE 74465 Demoort"]);
        let (_, address) = seller_address(&[
            ("Verkäufer:", 40.0, 100.0),
            ("Lieferant GmbH", 40.0, 122.0),
            ("Abteilung Vertrieb", 40.0, 133.0),
            ("Musterstraße 12", 40.0, 144.0),
            ("DE 12345 Beispielstadt", 40.0, 166.0),
            ("Pos Beschreibung Menge Preis Betrag", 40.0, 260.0),
        ]);
        assert_eq!(address, ["Musterstraße 12", "DE 12345 Beispielstadt"]);
        // A company's line there is no contact: the name above it is then in doubt, and the
        // line stays.
        let (_, address) = seller_address(&[
            ("Verkäufer:", 40.0, 100.0),
            ("Lieferant GmbH", 40.0, 114.0),
            ("Transports Balodis AS", 40.0, 125.0),
            ("Erfurter Strasse 13", 40.0, 136.0),
            ("DE 74465 Demoort", 40.0, 147.0),
            ("Pos Beschreibung Menge Preis Betrag", 40.0, 260.0),
        ]);
        assert_eq!(
            address.first().map(String::as_str),
            Some("Transports Balodis AS")
        );
        // A place without a number right over the town's postcode line is the address's.
        let (_, address) = seller_address(&[
            ("Vendeur :", 40.0, 100.0),
            ("Lieferant SARL", 40.0, 114.0),
            ("ZI du Mirail", 40.0, 125.0),
            ("31100 Toulouse", 40.0, 136.0),
            ("Pos Beschreibung Menge Preis Betrag", 40.0, 260.0),
        ]);
        assert_eq!(address, ["ZI du Mirail", "31100 Toulouse"]);
    }

    #[test]
    fn a_hook_read_as_an_apostrophe_keeps_the_party_label() {
        // `Zhotoviteľ:` / `Objednávateľ:` whose `ľ` OCR read as `l'`.
        let d = doc(&[
            ("Zhotovitel':", 40.0, 100.0),
            ("Objednávatel':", 320.0, 100.0),
            ("Horváth Elektro a.s.", 40.0, 114.0),
            ("Nord Tlač s.r.o.", 320.0, 114.0),
            ("Priemyselná 29", 40.0, 128.0),
            ("Mlynská 6", 320.0, 128.0),
            ("974 01 Banská Bystrica", 40.0, 142.0),
            ("811 01 Bratislava", 320.0, 142.0),
            ("Popis Množstvo Cena Suma", 40.0, 260.0),
        ]);
        let c = find(&d);
        let labelled = |role| {
            c.iter()
                .find(|c| c.role == role && c.source == PartySource::Labelled)
                .and_then(|c| c.name.as_ref())
                .map(|n| n.0.clone())
        };
        assert_eq!(
            labelled(LabelKey::Seller).as_deref(),
            Some("Horváth Elektro a.s.")
        );
        assert_eq!(
            labelled(LabelKey::Buyer).as_deref(),
            Some("Nord Tlač s.r.o.")
        );
        // An apostrophe of a word is no hook (`Lieferant's GmbH` names no label).
        assert!(!stands_alone("Lieferant's GmbH", "Lieferant".len()));
    }

    #[test]
    fn form_rows_with_a_two_line_name_cell() {
        // The key `Name:` sits on the second line of its value cell.
        let d = doc(&[
            ("Verkäufer", 70.0, 160.0),
            ("Nummer:", 70.0, 178.0),
            ("549910", 260.0, 178.0),
            ("MVM Musterhafter", 260.0, 196.0),
            ("Name:", 70.0, 208.0),
            ("Versicherungsverein Musterstadt a.G.", 260.0, 208.0),
            ("Anschrift:", 70.0, 226.0),
            ("Musterstr. 12", 260.0, 226.0),
            ("DE 12345 Musterstadt", 260.0, 240.0),
            ("USt.-Id.-Nr.:", 70.0, 256.0),
            ("DE234567891", 260.0, 256.0),
            ("Käufer/Leistungsempfänger", 70.0, 300.0),
            ("Herrn", 260.0, 318.0),
            ("Name:", 70.0, 330.0),
            ("Max Mustermann", 260.0, 330.0),
        ]);
        let c = find(&d);
        assert_eq!(
            names(&c, LabelKey::Seller)[0],
            (
                PartySource::Form,
                "MVM Musterhafter Versicherungsverein Musterstadt a.G.".to_string()
            )
        );
        let seller = c.iter().find(|c| c.role == LabelKey::Seller).unwrap();
        let addr: Vec<&str> = seller.address.iter().map(|a| a.0.as_str()).collect();
        assert_eq!(addr, ["Musterstr. 12", "DE 12345 Musterstadt"]);
        assert!(seller.region.iter().any(|s| s.text == "DE234567891"));
        assert_eq!(
            names(&c, LabelKey::Buyer)[0],
            (PartySource::Form, "Max Mustermann".to_string())
        );
    }

    #[test]
    fn value_right_of_the_label_with_aligned_continuation() {
        let d = doc(&[
            ("Исполнитель:", 50.0, 77.0),
            ("ООО «Северные Технологии»", 130.0, 77.0),
            (
                "г. Санкт-Петербург, Невский пр., д. 28, ИНН 7812345675",
                130.0,
                88.0,
            ),
            ("Заказчик:", 50.0, 105.0),
            (
                "АО «Волжский Трубный Завод», г. Волгоград, ул. Мира, д. 5",
                130.0,
                105.0,
            ),
        ]);
        let c = find(&d);
        assert_eq!(
            names(&c, LabelKey::Seller)[0].1,
            "ООО «Северные Технологии»"
        );
        let seller = c.iter().find(|c| c.role == LabelKey::Seller).unwrap();
        assert!(seller.address[0].0.starts_with("г. Санкт-Петербург"));
        assert_eq!(
            names(&c, LabelKey::Buyer)[0].1,
            "АО «Волжский Трубный Завод»"
        );
    }

    #[test]
    fn customer_number_is_not_a_section_and_titles_are_not_values() {
        let d = doc(&[
            ("Seller:", 50.0, 50.0),
            ("INVOICE", 400.0, 46.0),
            ("Northwind Office Supplies Ltd", 50.0, 64.0),
            ("Customer: 2", 50.0, 300.0),
            ("Your order AB321", 50.0, 314.0),
        ]);
        let c = find(&d);
        assert_eq!(
            names(&c, LabelKey::Seller)[0].1,
            "Northwind Office Supplies Ltd"
        );
        assert!(names(&c, LabelKey::Buyer).is_empty(), "{c:#?}");
    }

    #[test]
    fn sender_line_and_address_window() {
        let d = doc(&[
            ("Bei Spiel GmbH ● Ecke 12 ● 12345 Stadthausen", 80.0, 150.0),
            ("Theodor Est", 70.0, 166.0),
            ("Bahnstr. 42", 70.0, 181.0),
            ("88802 Spielkreis", 70.0, 196.0),
            ("Invoice RE-20190610/507", 70.0, 300.0),
        ]);
        let c = find(&d);
        assert!(
            names(&c, LabelKey::Seller)
                .contains(&(PartySource::SenderLine, "Bei Spiel GmbH".to_string()))
        );
        assert_eq!(
            names(&c, LabelKey::Buyer),
            [(PartySource::AddressWindow, "Theodor Est".to_string())]
        );
    }

    #[test]
    fn a_sender_line_whose_dots_ocr_lost_still_heads_the_addressees_block() {
        // `AB "Statyba Baltic" · Gedimino pr. 126 · LT-01103 Vilnius`, its dots read as a full
        // stop or lost, over the window: the addressee is a block of its own, never joined to
        // the sender's name.
        let d = doc(&[
            (
                "AB \"Statyba Baltic\". Gedimino pr. 126 LT-01103 Vilnius",
                70.0,
                150.0,
            ),
            ("UAB Baldai", 70.0, 166.0),
            ("Kazlauskas", 70.0, 181.0),
            ("Pramonės g. 39", 70.0, 196.0),
            ("LT-76001 Šiauliai", 70.0, 211.0),
            ("Sąskaita 19062357", 70.0, 300.0),
        ]);
        let blocks: Vec<String> = names(&find(&d), LabelKey::Seller)
            .into_iter()
            .filter(|(s, _)| *s == PartySource::Block)
            .map(|(_, n)| n)
            .collect();
        assert!(
            blocks.contains(&"AB \"Statyba Baltic\"".to_string()),
            "{blocks:?}"
        );
        assert!(blocks.contains(&"UAB Baldai".to_string()), "{blocks:?}");
        assert!(
            !blocks
                .iter()
                .any(|n| n.contains("Statyba") && n.contains("Baldai")),
            "{blocks:?}"
        );
    }

    #[test]
    fn a_title_over_an_address_block_is_no_line_of_its_name() {
        // A receipt: its title, then the shop's name and address, set as one block.
        let d = doc(&[
            ("Kassebon", 120.0, 60.0),
            ("Prime IT A/S", 110.0, 74.0),
            ("Søndergade 157", 106.0, 88.0),
            ("1620 København V", 100.0, 102.0),
            ("Ebler  3 × 56,19  168,57", 20.0, 150.0),
            ("Til betaling:  202,50 kr.", 20.0, 200.0),
        ]);
        let c = find(&d);
        let windows: Vec<String> = c
            .iter()
            .filter(|c| c.source == PartySource::AddressWindow)
            .filter_map(|c| c.name.as_ref().map(|n| n.0.clone()))
            .collect();
        assert_eq!(windows, ["Prime IT A/S"], "{c:#?}");
    }

    #[test]
    fn letterhead_sender_style_line_is_cut_to_the_name() {
        let d = doc(&[
            (
                "Au bon moulin SARL - 1242 chemin de l'olive - 84340 Malaucène - France",
                110.0,
                30.0,
            ),
            ("Facture FA-2017-0010", 30.0, 90.0),
        ]);
        let c = find(&d);
        assert_eq!(
            names(&c, LabelKey::Seller)[0],
            (PartySource::Letterhead, "Au bon moulin SARL".to_string())
        );
    }

    #[test]
    fn names_wrapped_before_a_legal_form_of_further_countries() {
        for (first, second, name) in [
            (
                "Wagner",
                "Gastronomiebedarf e.U.",
                "Wagner Gastronomiebedarf e.U.",
            ),
            ("Euro", "Elektriciteit CommV", "Euro Elektriciteit CommV"),
            (
                "González",
                "Suministros S.Coop.",
                "González Suministros S.Coop.",
            ),
        ] {
            let d = doc(&[
                ("Lieferant:", 50.0, 50.0),
                (first, 50.0, 62.0),
                (second, 50.0, 74.0),
                ("Mariahilfer Straße 47", 50.0, 86.0),
                ("4020 Linz", 50.0, 98.0),
            ]);
            let c = find(&d);
            assert_eq!(names(&c, LabelKey::Seller)[0].1, name);
        }
    }

    #[test]
    fn names_wrapped_before_the_legal_form() {
        let d = doc(&[
            ("Sprzedawca:", 50.0, 50.0),
            ("Przedsiębiorstwo Handlowe „Żuraw”", 50.0, 62.0),
            ("Sp. z o.o.", 50.0, 74.0),
            ("ul. Świętokrzyska 18", 50.0, 86.0),
            ("00-052 Warszawa", 50.0, 98.0),
        ]);
        let c = find(&d);
        assert_eq!(
            names(&c, LabelKey::Seller)[0].1,
            "Przedsiębiorstwo Handlowe „Żuraw” Sp. z o.o."
        );
    }

    #[test]
    fn letterhead_names_end_in_a_legal_form_on_the_next_line() {
        for (first, second, name) in [
            ("Delta", "Catering LLP", "Delta Catering LLP"),
            ("Pérez Transportes", "S.A.", "Pérez Transportes S.A."),
            ("Alpha", "El HB", "Alpha El HB"),
            ("Elekter Kukk", "MTÜ", "Elekter Kukk MTÜ"),
            ("Fjord Bygg", "ANS", "Fjord Bygg ANS"),
            // A spaced or dotted form is one word of the name (`s.r.o.`).
            ("Horváth", "Stavby s.r.o.", "Horváth Stavby s.r.o."),
        ] {
            let d = doc(&[
                (first, 50.0, 30.0),
                (second, 50.0, 42.0),
                ("Paseo de Gracia, 111, 28013 Madrid", 50.0, 54.0),
                ("Factura", 300.0, 100.0),
            ]);
            let c = find(&d);
            assert!(
                names(&c, LabelKey::Seller).contains(&(PartySource::Letterhead, name.to_string())),
                "{:?}",
                names(&c, LabelKey::Seller)
            );
        }
    }

    /// `Key:  Company` rows one over the other, one key known (`Maksja:`, payer), the other not:
    /// the unknown key labels the other party.
    #[test]
    fn an_unknown_key_over_a_known_party_label_names_the_other_party() {
        let rows = |seller_key: &'static str| {
            vec![
                ("Krediitarve", 250.0, 40.0),
                (seller_key, 48.0, 97.0),
                ("Trükikoda Baltic FIE", 143.0, 97.0),
                ("Pärnu mnt 81, 10111 Tallinn", 143.0, 109.0),
                ("Maksja:", 48.0, 124.0),
                ("Kovács Építőipari Nyrt.", 143.0, 124.0),
                ("Andrássy út 169., 4024 Debrecen", 143.0, 136.0),
            ]
        };
        let c = find(&doc(&rows("Arve väljastaja:")));
        assert!(
            names(&c, LabelKey::Seller)
                .contains(&(PartySource::Labelled, "Trükikoda Baltic FIE".to_string())),
            "{:?}",
            names(&c, LabelKey::Seller)
        );
        assert!(
            names(&c, LabelKey::Buyer)
                .contains(&(PartySource::Labelled, "Kovács Építőipari Nyrt.".to_string()))
        );
        // A key the vocabulary knows for something else (a date) labels no party.
        let c = find(&doc(&rows("Kuupäev:")));
        assert!(
            !names(&c, LabelKey::Seller)
                .iter()
                .any(|(s, _)| *s == PartySource::Labelled)
        );
    }

    #[test]
    fn a_two_letter_legal_form_over_a_quoted_name_opens_the_letterhead() {
        let d = doc(&[
            ("IK", 300.0, 64.0),
            ("\"Būvniecība Zariņš\"", 185.0, 78.0),
            ("Elizabetes iela 74", 226.0, 92.0),
            ("LV-5401 Daugavpils", 209.0, 106.0),
            ("Kvīts", 285.0, 140.0),
        ]);
        assert_eq!(letterhead(&d).unwrap().text, "IK \"Būvniecība Zariņš\"");
    }

    #[test]
    fn letterheads_end_in_dotted_forms_and_never_sit_under_a_key() {
        // `Sp. k.` ends a company name, not a sentence; `Thank you for trusting us.` does.
        assert!(!sentence_like("Kowalski Transport Sp. k."));
        assert!(!sentence_like("Novák Stavby s. r. o."));
        assert!(sentence_like("Thank you for trusting us."));
        let d = doc(&[
            ("Kowalski Transport Sp. k.", 50.0, 30.0),
            ("Korekta", 300.0, 60.0),
            ("Qwerty:", 50.0, 100.0),
            ("Nowak Serwis Sp. j.", 50.0, 112.0),
            ("ul. Długa 5", 50.0, 124.0),
        ]);
        assert_eq!(letterhead(&d).unwrap().text, "Kowalski Transport Sp. k.");
        // A name under a key of its own (a label of any language) heads a labelled block: the
        // letterhead is the unlabelled line above, though it reads less like a company.
        let d = doc(&[
            ("Zieliński Transport", 50.0, 30.0),
            ("Faktura VAT", 300.0, 60.0),
            ("Qwerty:", 50.0, 100.0),
            ("Nowak Serwis Sp. k.", 50.0, 112.0),
            ("ul. Długa 5", 50.0, 124.0),
        ]);
        assert_eq!(letterhead(&d).unwrap().text, "Zieliński Transport");
    }

    #[test]
    fn letterhead_of_receipts() {
        let d = doc(&[
            ("TAN WOON YANN", 72.0, 25.0),
            ("BOOK TA .K(TAMAN DAYA) SDN BND", 50.0, 45.0),
            ("NO.53 55,57 & 59, JALAN SAGU 18,", 50.0, 59.0),
        ]);
        assert_eq!(
            letterhead(&d).unwrap().text,
            "BOOK TA .K(TAMAN DAYA) SDN BND"
        );
        let d = doc(&[
            ("POPULAR BOOK", 72.0, 25.0),
            ("CO. (M) SDN BHD", 60.0, 38.0),
            ("(113825-W)", 80.0, 51.0),
        ]);
        assert_eq!(letterhead(&d).unwrap().text, "POPULAR BOOK CO. (M) SDN BHD");
    }

    #[test]
    fn the_addressee_under_a_sender_line_is_no_letterhead() {
        let d = doc(&[
            ("IK Būvniecība Nord", 48.0, 20.0),
            ("Elizabetes iela 83, LV-1050 Rīga", 48.0, 32.0),
            ("PVN maksātāja Nr. LV45753012952", 48.0, 44.0),
            (
                "IK Būvniecība Nord · Elizabetes iela 83 · LV-1050 Rīga",
                320.0,
                60.0,
            ),
            ("AS \"Elektro Krūmiņš\"", 320.0, 72.0),
            ("Rūpniecības iela 8", 320.0, 84.0),
            ("LV-3601 Ventspils", 320.0, 96.0),
        ]);
        assert_eq!(letterhead(&d).unwrap().text, "IK Būvniecība Nord");
    }

    #[test]
    fn a_label_line_is_no_name_and_a_dotted_legal_form_is_one() {
        let d = doc(&[
            ("Alpha Drukkerij V.O.F.", 370.0, 40.0),
            ("Hoofdstraat 75, 3011 AD Rotterdam", 390.0, 52.0),
            ("Aan:", 48.0, 180.0),
            ("Horváth és Tóth Nyrt.", 48.0, 192.0),
            ("Fő utca 57.", 48.0, 204.0),
            ("7621 Pécs", 48.0, 216.0),
        ]);
        let found = find(&d);
        let named = |n: &str| {
            found
                .iter()
                .any(|c| c.name.as_ref().is_some_and(|(t, _)| t == n))
        };
        assert!(named("Alpha Drukkerij V.O.F."), "{found:?}");
        assert!(named("Horváth és Tóth Nyrt."), "{found:?}");
        assert!(!named("Aan"), "{found:?}");
    }

    #[test]
    fn a_house_number_is_not_a_document_number() {
        assert!(!is_id_line("NO 290, JALAN AIR PANAS,"));
        assert!(!is_id_line("No. 5, Main Road"));
        assert!(is_id_line("No. 4711"));
        assert!(is_id_line("DOC NO. CS00011983"));
        // A receipt's letterhead: registration number, then the street line opening with
        // `NO`, a district line, the postcode line, the contacts.
        let d = doc(&[
            ("SYARIKAT PERNIAGAAN GIN KEE", 60.0, 25.0),
            ("(81109-A)", 60.0, 37.0),
            ("NO 290, JALAN AIR PANAS,", 60.0, 49.0),
            ("SETAPAK,", 60.0, 61.0),
            ("53200, KUALA LUMPUR.", 60.0, 73.0),
            ("TEL: 03-40210276", 60.0, 85.0),
        ]);
        let found = find(&d);
        let seller = found
            .iter()
            .find(|p| {
                p.name
                    .as_ref()
                    .is_some_and(|(n, _)| n.starts_with("SYARIKAT"))
            })
            .unwrap_or_else(|| panic!("the letterhead is a candidate: {found:?}"));
        let address: Vec<&str> = seller.address.iter().map(|(t, _)| t.as_str()).collect();
        assert_eq!(
            address,
            ["NO 290, JALAN AIR PANAS", "SETAPAK", "53200, KUALA LUMPUR."],
            "{found:?}"
        );
    }

    #[test]
    fn one_row_of_thousands_of_cells_stays_linear() {
        let row = |n: usize| {
            let words = (0..n)
                .map(|i| {
                    let x = 40.0 + i as f32 * 40.0;
                    Word {
                        text: format!("c{}", i % 10),
                        bbox: BBox::new(x, 100.0, x + 10.0, 110.0),
                        confidence: 1.0,
                    }
                })
                .collect();
            clean::clean(&[TextPage {
                page: 1,
                width: 40.0 * n as f32 + 80.0,
                height: 800.0,
                unit: Unit::Pt,
                source: Source::TextLayer,
                engine: None,
                rotation: 0,
                words,
            }])
        };
        let (small, big) = (row(4_000), row(32_000));
        crate::preprocess::test_support::assert_near_linear("parties of one row", &|k| {
            find(if k == 1 { &small } else { &big });
        });
    }

    #[test]
    fn company_and_address_shapes() {
        assert!(is_company_like("Lieferant GmbH"));
        assert!(is_company_like("ТОВ «Ромашка»"));
        assert!(is_company_like("SYARIKAT PERNIAGAAN GIN KEE SDN BND"));
        assert!(!is_company_like("Max Mustermann"));
        // A legal form as the last word; a short one inside an address is none.
        assert!(is_company_like("Gheorghe & Popescu PFA"));
        assert!(is_company_like("Delta Catering LLP"));
        assert!(!is_company_like(
            "OFF JLN BT 3 SUBANG, 40000 SHAH ALAM, SEL."
        ));
        assert!(is_address_like("Lieferantenstraße 20"));
        assert!(is_address_like("80333 München"));
        assert!(is_address_like("88802Spielkreis"));
        assert!(is_address_like("NO.53, JALAN SAGU 18"));
        assert!(!is_address_like("Kunden AG Mitte"));
        // The dot of a legal form's abbreviation ends a name, not a sentence.
        assert!(!sentence_like("Alpha Drukkerij V.O.F."));
        assert!(!sentence_like("Rossi Consulenze S.p.A."));
        assert!(!sentence_like("Kovács és Társa Kft."));
        assert!(sentence_like("Vielen Dank für Ihren Auftrag."));
        assert!(sentence_like("Please pay within 14 days."));
        assert!(digit_heavy("GLN 4333741000005 Lief-Nr"));
        assert!(!digit_heavy("Müller & Söhne 2 GmbH"));
        // Six digits can be a postcode.
        assert!(!digit_heavy("ул. Садовая, д. 32, 620014, г. Екатеринбург"));
    }

    #[test]
    fn addresses_of_many_countries() {
        for line in [
            "Rua de Santa Catarina, 6",
            "3000-150 Coimbra",
            "Drottninggatan 133, 702 10 Örebro",
            "110 00 Praha 1",
            "3511 AX Utrecht",
            "Søndergade 31",
            "Hämeenkatu 63",
            "Fő utca 151.",
            "Piazza Duomo 161",
            "Via Garibaldi 90",
            "C/ Alcalá, 91",
            "Avda. de la Constitución, 50",
            "Av. da Liberdade, 167",
            "Calea Dorobanților nr. 42",
            "al. Jerozolimskie 177",
            "620014, г. Екатеринбург",
            "79000, м. Львів",
            "Váci út 14.",
            "Andrássy út 86.",
            "Vilniaus g. 12",
            "Pärnu mnt 31",
            "Keizersgracht 214",
            "Mannerheimintie 5",
            "Karl Johans gate 3",
            "Travessa do Carmo 4",
            "Aleea Rozelor 7",
            "Vinohradská třída 12",
            // A lot with its plot code (Malaysia, France): `LOT PTD 101051`, `Lot LG 315`.
            "LOT PTD 101051",
            "Lot LG 315, 1 Utama Shopping Centre",
            "LOT S319, 2ND FLOOR",
            "Lot 12",
        ] {
            assert!(is_address_like(line), "{line}");
        }
        for line in [
            "Paid via bank transfer",
            "Consultores Costa Unipessoal Lda.",
            "Invoice total EUR",
            "Pilot project phase 2",
            "Lot of spare parts",
        ] {
            assert!(!is_address_like(line), "{line}");
        }
    }

    #[test]
    fn an_address_block_set_apart_under_a_receipts_head_is_a_nameless_address() {
        let d = doc(&[
            ("WESTERN EASTERN", 120.0, 20.0),
            ("STATIONERY SDN. BHD", 110.0, 34.0),
            ("CO REG NO : 210038-K", 110.0, 48.0),
            ("GST ID : 000517095424", 110.0, 62.0),
            ("42-46, JLN SULTAN AZLAN", 100.0, 100.0),
            ("SHAH 51200 KUALA LUMPUR", 100.0, 114.0),
            ("TAX INVOICE", 130.0, 160.0),
            ("PCS  st.  1.20", 100.0, 200.0),
        ]);
        let c = find_with_addresses(&d).1;
        let addresses: Vec<Vec<&str>> = c.iter().map(lines_of).collect();
        assert_eq!(
            addresses,
            [["42-46, JLN SULTAN AZLAN", "SHAH 51200 KUALA LUMPUR"]]
        );
    }

    #[test]
    fn a_phone_under_a_key_no_vocabulary_knows_is_no_address_line() {
        assert!(phone_line("Те!: +30 994 976 593"));
        // An address with a phone after it, two phones, a street: not a phone's line.
        assert!(!phone_line("Viru tn 68, 20308 Narva, +372 555 1234"));
        assert!(!phone_line("+49 89 1234567 / +49 89 7654321"));
        assert!(!phone_line("ул. Тверская, д. 59"));
        // A labelled section's address stops short of it.
        let d = doc(&[
            ("Грузоотправитель:", 48.0, 40.0),
            ("ПАО \"СтройМонтаж\"", 48.0, 52.0),
            ("ул. Тверская, д. 59", 48.0, 64.0),
            ("125009, г. Москва", 48.0, 76.0),
            ("Те!: +30 994 976 593", 48.0, 88.0),
        ]);
        let c = find(&d);
        let seller = c
            .iter()
            .find(|c| c.role == LabelKey::Seller)
            .expect("seller");
        assert_eq!(
            lines_of(seller),
            ["ул. Тверская, д. 59", "125009, г. Москва"]
        );
    }

    #[test]
    fn opening_hours_are_no_address() {
        for line in [
            "SHOPPING HOURS",
            "SUN-THU: 1000 HRS - 2200 HRS",
            "Öffnungszeiten: Mo-Fr 8-18 Uhr",
            "Horaires d'ouverture",
            "10:00 - 22:00",
        ] {
            assert!(opening_hours(line), "{line}");
        }
        for line in [
            "Hauptstraße 10-12",
            "55100 KUALA LUMPUR",
            "JALAN SS 2/24",
            "Tel. 03-7877 1234",
            "Do Carmo 4",
            "Rua Augusta, 174, 1100-053 Lisboa",
            "2000-123 Santarém",
        ] {
            assert!(!opening_hours(line), "{line}");
        }
        // The address stops at the hours under it.
        let d = doc(&[
            ("AEON CO. (M) BHD", 100.0, 20.0),
            ("3RD FLR, AEON TAMAN MALURI SC", 100.0, 34.0),
            ("JLN JEJAKA, TAMAN MALURI", 100.0, 48.0),
            ("CHERAS, 55100 KUALA LUMPUR", 100.0, 62.0),
            ("SHOPPING HOURS", 100.0, 76.0),
            ("SUN-THU: 1000 HRS - 2200 HRS", 100.0, 90.0),
        ]);
        let c = find(&d);
        let addr = address_of(&c, PartySource::Letterhead);
        assert_eq!(addr.last(), Some(&"CHERAS, 55100 KUALA LUMPUR"), "{addr:?}");
    }

    #[test]
    fn a_line_holding_only_a_vat_id_is_an_id_line() {
        assert!(is_id_line("BTW BE0305854361"));
        assert!(is_id_line("SE-nr. DK26535859"));
        assert!(!is_id_line("Veldstraat 6, 8000 Brugge"));
    }

    #[test]
    fn names_left_open_or_with_a_bracketed_form_continue_on_the_next_line() {
        let d = doc(&[
            ("АО «Новиков и", 50.0, 30.0),
            ("партнёры»", 50.0, 42.0),
            ("пр-т Мира, д. 20", 50.0, 54.0),
            ("Чек", 300.0, 100.0),
        ]);
        assert!(names(&find(&d), LabelKey::Seller).contains(&(
            PartySource::Letterhead,
            "АО «Новиков и партнёры»".to_string()
        )));
        let d = doc(&[
            ("Verkäufer:", 50.0, 100.0),
            ("Müller Elektro UG", 50.0, 112.0),
            ("(haftungsbeschränkt)", 50.0, 124.0),
            ("Am Markt 156", 50.0, 136.0),
            ("04109 Leipzig", 50.0, 148.0),
        ]);
        let c = find(&d);
        assert_eq!(
            names(&c, LabelKey::Seller)[0],
            (
                PartySource::Labelled,
                "Müller Elektro UG (haftungsbeschränkt)".to_string()
            )
        );
        assert_eq!(
            address_of(&c, PartySource::Labelled),
            ["Am Markt 156", "04109 Leipzig"]
        );
        let d = doc(&[
            ("Destinatario:", 50.0, 100.0),
            ("Bianchi", 50.0, 112.0),
            ("Impianti Elettrici S.r.l.", 50.0, 124.0),
            ("Corso Italia 92", 50.0, 136.0),
        ]);
        assert_eq!(
            names(&find(&d), LabelKey::Buyer)[0],
            (
                PartySource::Labelled,
                "Bianchi Impianti Elettrici S.r.l.".to_string()
            )
        );
    }

    #[test]
    fn legal_forms_before_the_name_and_alone_on_a_line() {
        // Forms before the name, and the slashed Danish forms.
        for t in [
            "SIA Baltija",
            "UAB Vilniaus Prekyba",
            "IK \"Transports Balodis\"",
            "IĮ \"Statyba Plus\"",
            "Jensen IT A/S",
            "Pedersen Trykkeri I/S",
        ] {
            assert!(is_company_like(t), "{t}");
        }
        assert!(!is_company_like("AD 2020 Ventspils"));
        // A form alone on its line joins the name under it.
        assert!(begins_name("ИП", "Соколов К.Г."));
        // Initials `Д.` are no house (`д. 104`).
        assert!(begins_name("ФОП", "Олійник Д.І."));
        assert!(is_address_like("ул. Садовая, д. 104"));
        assert!(is_address_like("д.5, кв. 3"));
        assert!(begins_name("AS", "\"Tirdzniecība Kalniņš\""));
        assert!(!begins_name("AS", "Brīvības iela 12"));
        let d = doc(&[
            ("Pirkėjas:", 50.0, 100.0),
            ("AS", 50.0, 112.0),
            ("\"Tirdzniecība Kalniņš\"", 50.0, 124.0),
            ("Brīvības iela 12", 50.0, 136.0),
            ("LV-3601 Ventspils", 50.0, 148.0),
        ]);
        assert_eq!(
            names(&find(&d), LabelKey::Buyer)[0].1,
            "AS \"Tirdzniecība Kalniņš\""
        );
    }

    #[test]
    fn a_sender_line_set_in_columns_over_the_window_names_the_seller() {
        let mut rows = vec![
            ("UAB \"Prekyba Nord\"", 300.0, 20.0),
            ("Konstitucijos pr. 179, LT-01103 Vilnius", 300.0, 34.0),
            ("Sąskaita faktūra", 300.0, 300.0),
        ];
        rows.extend([
            ("MB \"Prekyba Baltic\"", 50.0, 112.0),
            ("Laisvės al. 157", 50.0, 126.0),
            ("LT-01103 Vilnius", 50.0, 140.0),
        ]);
        let mut words: Vec<_> = rows
            .iter()
            .flat_map(|&(t, x, y)| line_words(t, x, y))
            .collect();
        // The sender line: small print, three columns.
        for (t, x) in [
            ("UAB \"Prekyba Nord\"", 50.0),
            ("Konstitucijos pr. 179", 170.0),
            ("LT-01103 Vilnius", 300.0),
        ] {
            for mut w in line_words(t, x, 96.0) {
                w.bbox.y1 = w.bbox.y0 + 6.0;
                words.push(w);
            }
        }
        let d = page_doc(words);
        let c = find(&d);
        assert_eq!(
            names(&c, LabelKey::Buyer),
            [(
                PartySource::AddressWindow,
                "MB \"Prekyba Baltic\"".to_string()
            )]
        );
        assert!(
            names(&c, LabelKey::Seller)
                .contains(&(PartySource::SenderLine, "UAB \"Prekyba Nord\"".to_string()))
        );
    }

    #[test]
    fn an_ampersand_read_as_a_digit_at_a_name_break_is_read_back() {
        // Spaced legal forms end a name.
        for t in [
            "Kowalski Transport Sp. k.",
            "Nowak Sp. j.",
            "Novák Stavby s. r. o.",
        ] {
            assert!(ends_with_legal_form(t) && has_legal_form(t), "{t}");
        }
        assert!(!ends_with_legal_form("Jan Kowalski"));
        // The digit at the break, after the first words or before the second line's.
        for (first, second, name) in [
            ("Lewandowski 6", "Wójcik S.A.", "Lewandowski & Wójcik S.A."),
            ("Kamiński 8:", "Nowak Sp. k.", "Kamiński & Nowak Sp. k."),
            (
                "Kowalski",
                "6 Zieliński Sp. k.",
                "Kowalski & Zieliński Sp. k.",
            ),
        ] {
            let d = doc(&[
                (first, 300.0, 30.0),
                (second, 300.0, 42.0),
                ("ul. Długa 5, 00-950 Warszawa", 300.0, 54.0),
                ("NIP 6491974682", 300.0, 66.0),
                ("Faktura VAT", 300.0, 100.0),
            ]);
            let c = find(&d);
            let sellers = names(&c, LabelKey::Seller);
            assert!(
                sellers.contains(&(PartySource::Letterhead, name.to_string())),
                "{sellers:?}"
            );
            let lh = c
                .iter()
                .find(|c| c.source == PartySource::Letterhead)
                .unwrap();
            assert_eq!(lines_of(lh), ["ul. Długa 5, 00-950 Warszawa"], "{name}");
        }
        // A street and its number stay one: the line below ends in no legal form.
        let d = doc(&[
            ("Lindenallee 6", 50.0, 30.0),
            ("70173 Stuttgart", 50.0, 42.0),
        ]);
        let whole = |l: &Line| Span::from_line(l, 0, l.text.len());
        let (a, _) = ampersand_at_break(&whole(&d.lines[0]), &whole(&d.lines[1]));
        assert_eq!(a.text, "Lindenallee 6");
    }

    #[test]
    fn a_name_begun_on_the_line_above_is_read_whole() {
        // Names joined by a word of any language end the line open; a dotted form does not.
        for t in [
            "Černý &",
            "Lewandowski i",
            "Hansen og",
            "Virtanen ja",
            "Kovács és",
            "Smith and",
        ] {
            assert!(ends_open(t), "{t}");
        }
        for t in [
            "Munteanu Tipografie S.A.",
            "ИП Новиков Б.И.",
            "Rossi e Figli",
        ] {
            assert!(!ends_open(t), "{t}");
        }
        // Only the legal form on the name's line: the words above begin it, unless they are a
        // key, an address or an id.
        assert!(begins_name("Garcia & Fernandez", "S.L."));
        assert!(!begins_name("Vendedor:", "S.L."));
        assert!(!begins_name("Calle Mayor 5", "S.L."));
        assert!(!begins_name("Garcia & Fernandez", "se"));
        // An unlabelled block with an id: the letterhead name over two lines.
        let d = doc(&[
            ("Factura", 300.0, 20.0),
            ("Nº 2026-1", 300.0, 32.0),
            ("Garcia & Fernandez", 50.0, 100.0),
            ("S.L.", 50.0, 112.0),
            ("Avda. de la Constitución, 10", 50.0, 124.0),
            ("28013 Madrid", 50.0, 136.0),
            ("CIF B13186090", 50.0, 148.0),
        ]);
        let c = find(&d);
        assert!(
            names(&c, LabelKey::Seller)
                .iter()
                .any(|(_, n)| n == "Garcia & Fernandez S.L."),
            "{:?}",
            names(&c, LabelKey::Seller)
        );
        assert!(
            !names(&c, LabelKey::Seller).iter().any(|(_, n)| n == "S.L."),
            "{:?}",
            names(&c, LabelKey::Seller)
        );
    }

    #[test]
    fn an_unknown_key_beside_a_party_label_labels_the_other_party() {
        // `Paslaugų teikėjas` (service provider) is no word of the vocabulary; `Gavėjas` labels
        // the buyer, so the block under the unknown key is the seller's.
        let rows = |left: &'static str, right: &'static str| {
            doc(&[
                (left, 48.0, 90.0),
                (right, 250.0, 90.0),
                ("AB Statyba Žukauskas", 48.0, 102.0),
                ("IĮ \"Transportas Petrauskas\"", 250.0, 102.0),
                ("Pramonės g. 59", 48.0, 114.0),
                ("Pramonės g. 171", 250.0, 114.0),
                ("LT-76001 Šiauliai", 48.0, 126.0),
                ("LT-44240 Kaunas", 250.0, 126.0),
            ])
        };
        let d = rows("Gavėjas:", "Paslaugų teikėjas:");
        let sellers = names(&find(&d), LabelKey::Seller);
        assert!(
            sellers.contains(&(
                PartySource::Labelled,
                "IĮ \"Transportas Petrauskas\"".to_string()
            )),
            "{sellers:?}"
        );
        // A key of a known title word and an unknown one (`Arve koostaja:`) infers the same.
        assert!(unknown_words("Arve koostaja:"));
        assert!(!unknown_words("Rechnungsdatum:"));
        // Two unknown keys, or an unknown key without a party's block under it, infer nothing.
        let d = rows("Pirmoji šalis:", "Antroji šalis:");
        assert!(
            !names(&find(&d), LabelKey::Seller)
                .iter()
                .any(|(s, _)| *s == PartySource::Labelled)
        );
        let d = doc(&[
            ("Gavėjas:", 48.0, 90.0),
            ("Pastabos:", 250.0, 90.0),
            ("AB Statyba Žukauskas", 48.0, 102.0),
            ("Apmokėti per 14 dienų", 250.0, 102.0),
            ("Pramonės g. 59", 48.0, 114.0),
            ("LT-76001 Šiauliai", 48.0, 126.0),
        ]);
        assert!(
            !names(&find(&d), LabelKey::Seller)
                .iter()
                .any(|(s, _)| *s == PartySource::Labelled)
        );
    }

    #[test]
    fn a_company_row_under_an_unknown_key_ends_the_party_above() {
        let d = doc(&[
            ("Toimittaja:", 48.0, 81.0),
            ("Heikkinen Kuljetus Oy", 143.0, 81.0),
            ("Mannerheimintie 132, 90100 Oulu", 143.0, 92.0),
            ("Vastaanottaja:", 48.0, 109.0),
            ("Alpha Rakennus Oy", 143.0, 109.0),
            ("Hämeenkatu 142, 33100 Tampere", 143.0, 120.0),
        ]);
        let c = find(&d);
        let seller = c
            .iter()
            .find(|c| c.role == LabelKey::Seller && c.label_line.is_some())
            .expect("the labelled seller");
        let address: Vec<&str> = seller.address.iter().map(|a| a.0.as_str()).collect();
        assert_eq!(address, ["Mannerheimintie 132, 90100 Oulu"]);
        // A person under an unknown key (a contact) stays inside the section.
        let d = doc(&[
            ("Toimittaja:", 48.0, 81.0),
            ("Heikkinen Kuljetus Oy", 143.0, 81.0),
            ("Yhteyshenkilö:", 48.0, 92.0),
            ("Matti Virtanen", 143.0, 92.0),
            ("Mannerheimintie 132, 90100 Oulu", 143.0, 103.0),
        ]);
        let c = find(&d);
        let seller = c
            .iter()
            .find(|c| c.role == LabelKey::Seller && c.label_line.is_some())
            .expect("the labelled seller");
        assert!(
            seller
                .region
                .iter()
                .any(|s| s.text.contains("Mannerheimintie"))
        );
    }

    #[test]
    fn a_title_over_a_receipt_head_is_not_the_names_first_line() {
        // A till slip's title printed over the shop's name, in words the label vocabulary does
        // not hold but the document-type vocabulary does.
        for title in [
            "Kassebon",
            "Reçu de paiement",
            "Pénztárbizonylat",
            "Myyntikuitti",
            "Ticket de compra",
            "Kwitantie",
        ] {
            let d = doc(&[
                (title, 60.0, 40.0),
                ("Sorensen Byg ApS", 50.0, 52.0),
                ("Vesterbrogade 137", 50.0, 64.0),
                ("1620 København V", 50.0, 76.0),
            ]);
            let name = letterhead(&d).map(|s| s.text);
            assert_eq!(name.as_deref(), Some("Sorensen Byg ApS"), "{title}");
            let sellers = names(&find(&d), LabelKey::Seller);
            assert!(
                sellers.iter().all(|(_, n)| !n.starts_with(title)),
                "{title}: {sellers:?}"
            );
        }
    }

    #[test]
    fn a_legal_form_before_a_closed_quote_is_a_whole_name() {
        assert!(quoted_whole("АО «Попов и партнёры»"));
        assert!(quoted_whole("UAB \"Baldai Baltic\""));
        assert!(!quoted_whole("АО «Новиков и"));
        assert!(!quoted_whole("CO. (M) SDN BHD"));
        // A title over the name is not its first line; a name left open still continues.
        assert!(!begins_name("Товарный чек", "АО «Попов и партнёры»"));
        assert!(ends_open("АО «Новиков и"));
        let d = doc(&[
            ("Товарный чек", 60.0, 40.0),
            ("АО «Попов и партнёры»", 40.0, 52.0),
            ("ул. Ленина, д. 5", 40.0, 64.0),
            ("г. Казань", 40.0, 76.0),
        ]);
        let sellers = names(&find(&d), LabelKey::Seller);
        assert!(
            sellers.iter().all(|(_, n)| !n.contains("чек АО")),
            "{sellers:?}"
        );
    }

    #[test]
    fn two_column_party_labels_of_more_words() {
        // `From:` is a date word too; `Aan:` is a Dutch preposition.
        for (left, right, role, name) in [
            (
                "From:",
                "Invoice to:",
                LabelKey::Seller,
                "Euro Technologies DAC",
            ),
            ("Leverancier:", "Aan:", LabelKey::Buyer, "Larsen Handel A/S"),
        ] {
            let d = doc(&[
                (left, 48.0, 90.0),
                (right, 250.0, 90.0),
                ("Euro Technologies DAC", 48.0, 102.0),
                ("Larsen Handel A/S", 250.0, 102.0),
                ("Veldstraat 6", 48.0, 114.0),
                ("Vesterbrogade 75", 250.0, 114.0),
            ]);
            let found = names(&find(&d), role);
            assert!(
                found.contains(&(PartySource::Labelled, name.to_string())),
                "{left} / {right}: {found:?}"
            );
        }
    }

    #[test]
    fn a_town_line_between_two_keys_continues_the_address() {
        // `DE 12345 Beispielstadt` is nearer to `Telefon:` than to `Anschrift:`.
        let d = doc(&[
            ("Verkäufer", 70.0, 144.0),
            ("Name:", 70.0, 161.0),
            ("Physiotherapeutin", 261.0, 161.0),
            ("Anschrift:", 70.0, 197.0),
            ("Musterstraße 12", 261.0, 197.0),
            ("DE 12345 Beispielstadt", 261.0, 221.0),
            ("Telefon:", 70.0, 239.0),
            ("015119630027", 261.0, 239.0),
        ]);
        let c = find(&d);
        assert_eq!(
            address_of(&c, PartySource::Form),
            ["Musterstraße 12", "DE 12345 Beispielstadt"]
        );
    }

    /// A slash form whose `I` OCR read as `l` or `1` is still the legal form; other slashes
    /// are not.
    #[test]
    fn a_slash_form_misread_by_ocr_is_still_a_legal_form() {
        for n in [
            "IT Hansen l/S",
            "IT Hansen 1/S",
            "IT Hansen I/S",
            "Møller A/S",
        ] {
            assert!(has_legal_form(n), "{n}");
            assert!(is_company_like(n), "{n}");
        }
        assert_eq!(name_words("Hansen l/S"), ["hansen", "i/s"]);
        // A dotted form read with look-alike digits.
        assert!(ends_with_legal_form("Horváth Inštalácie 5.r.0."));
        assert_eq!(name_words("Horváth 5.r.0."), ["horváth", "sro"]);
        assert!(ends_with_legal_form("Consulenze Bianchi S.r.I.s."));
        assert_eq!(name_words("Inc."), ["inc"]);
        for n in ["Halle 5.1a", "Raum 1.05", "Kabel 5.0l"] {
            assert!(!has_legal_form(n), "{n}");
        }
        for n in ["Pumpe 1/2", "Flow l/min", "Ventil 1/4 Zoll"] {
            assert!(!has_legal_form(n), "{n}");
        }
    }

    /// A register line whose separator after the name OCR lost is still cut at the legal form
    /// that closes the name; a form that opens a name cuts nothing.
    #[test]
    fn a_register_line_without_its_first_separator_ends_the_name_at_its_form() {
        let t = "Kiss és Szabó Nyrt. Fő utca 88. · 4024 Debrecen · Közösségi adószám HU26623338";
        let texts = part_texts(t);
        assert_eq!(
            texts[..3],
            ["Kiss és Szabó Nyrt.", "Fő utca 88.", "4024 Debrecen"]
        );
        // A quoted name closes at its closing quote.
        let t = "I! \"Elektra Stankevičius\" Pramonės g. 48 · LT-92100 Klaipėda · PVM kodas";
        let texts = part_texts(t);
        assert_eq!(
            texts[..2],
            ["I! \"Elektra Stankevičius\"", "Pramonės g. 48"]
        );
        // A form of separate letters closes a name too, before a street's abbreviation.
        let t = "Kowalski Drukarnia Sp. j. al. Jerozolimskie 162 90-001 Łódź· NIP 5602914459";
        let texts = part_texts(t);
        assert_eq!(
            texts,
            [
                "Kowalski Drukarnia Sp. j.",
                "al. Jerozolimskie 162 90-001 Łódź",
                "NIP 5602914459"
            ]
        );
        let t = "SIA Baltija Brīvības iela 3 · LV-1010 Rīga";
        assert_eq!(part_texts(t)[0], "SIA Baltija Brīvības iela 3");
        // A closing quote that carries the name's full stop.
        let t = "SIA \"Tipogrāfija Nord\". Brīvības iela 37 · LV-5401 Daugavpils";
        assert_eq!(
            part_texts(t),
            [
                "SIA \"Tipogrāfija Nord\"",
                "Brīvības iela 37",
                "LV-5401 Daugavpils"
            ]
        );
        // A comma before the address ends a name without a closing form.
        let t = "AB Elektra Group, Konstitucijos pr. 137 · LT-92100 Klaipėda · PVM kodas LT1";
        assert_eq!(
            part_texts(t)[..3],
            [
                "AB Elektra Group",
                "Konstitucijos pr. 137",
                "LT-92100 Klaipėda"
            ]
        );
        // An address's own comma is no name's end.
        let t = "Rua Augusta, 131 · 8000-001 Faro";
        assert_eq!(part_texts(t), ["Rua Augusta, 131", "8000-001 Faro"]);
    }

    /// The parts of a sender line, as texts.
    fn part_texts(t: &str) -> Vec<&str> {
        let parts = sender_parts(t).expect("parts");
        parts.iter().map(|&(s, e)| &t[s..e]).collect()
    }

    /// Dots between a register line's parts that OCR read as a dash glued to the next word or a
    /// spaced colon still cut it; a hyphen, a minus and a key's colon alone do not.
    #[test]
    fn a_register_lines_dots_misread_as_dashes_or_colons_still_cut_it() {
        let t = "T Nielsen A/S -Industrivej 176 : 1620 København V:SE-nr. 39098547";
        let texts = part_texts(t);
        assert_eq!(texts[..2], ["T Nielsen A/S", "Industrivej 176"]);
        assert!(texts[2].starts_with("1620 København V"), "{texts:?}");
        assert_eq!(sender_parts("Preis -10 % Rabatt"), None);
        assert_eq!(sender_parts("Tel : 030 1234567"), None);
        // A dot read as a dash glued to the full stop before it.
        let t = "Veselý & Svoboda k.s.- Masarykova 76 · 602 00 Brno DIČ CZ35723755";
        assert_eq!(
            part_texts(t)[..2],
            ["Veselý & Svoboda k.s.", "Masarykova 76"]
        );
        assert_eq!(sender_parts("Dipl.-Ing. Müller GmbH"), None);
        assert_eq!(sender_parts("Ein- und Ausfuhr GmbH"), None);
        // A dot read as a dash glued to a form without a full stop, on a line cut elsewhere.
        let t = "Elekter Mägi MTÜ- Viru tn 68 20308 Narva · KMKR nr EE100866061";
        assert_eq!(
            part_texts(t)[..2],
            ["Elekter Mägi MTÜ", "Viru tn 68 20308 Narva"]
        );
        assert_eq!(sender_parts("Ein- Ausfuhr GmbH"), None);
        // A comma glued to the capital after it; an address's comma has its space.
        let t = "Alpha Informatica CommV,Kerkstraat 167 2000 Antwerpen BTW BE0976821672";
        assert_eq!(part_texts(t)[0], "Alpha Informatica CommV");
        assert_eq!(sender_parts("Kerkstraat 167, 2000 Antwerpen"), None);
        // Dots read as spaced full stops, alone or beside a middle dot read as one.
        let t = "Oliveira & Silva Lda. Rua Augusta, 131 . 8000-001 Faro . Contribuinte 589669150";
        let texts = part_texts(t);
        assert_eq!(
            texts,
            [
                "Oliveira & Silva Lda.",
                "Rua Augusta, 131",
                "8000-001 Faro",
                "Contribuinte 589669150"
            ]
        );
        let t = "SIA \"Būvniecība Nord\" . Elizabetes iela 125 · LV-3601 Ventspils";
        assert_eq!(part_texts(t)[0], "SIA \"Būvniecība Nord\"");
        // A full stop spaced off a lone word is an abbreviation's.
        assert_eq!(sender_parts("Musterstr . 5, 12345 Berlin"), None);
        assert_eq!(sender_parts("Müller-Lüdenscheidt GmbH"), None);
    }

    #[test]
    fn a_footer_register_line_names_a_seller_with_its_address() {
        // The seller printed only in the footer, as `name · street · town · id`, under a
        // buyer block at the top.
        let d = doc(&[
            ("Metallbau Weber UG", 48.0, 56.0),
            ("Lindenallee 44", 48.0, 68.0),
            ("50667 Köln", 48.0, 80.0),
            ("Rechnung", 430.0, 109.0),
            ("Summe netto:  1.410,68 EUR", 313.0, 243.0),
            (
                "Fischer Software AG · Industriestraße 50 · 80331 München · USt-ID DE824835211",
                100.0,
                760.0,
            ),
        ]);
        let c = find(&d);
        let footer: Vec<&PartyCandidate> = c
            .iter()
            .filter(|c| {
                c.role == LabelKey::Seller
                    && c.name
                        .as_ref()
                        .is_some_and(|(n, _)| n == "Fischer Software AG")
            })
            .collect();
        assert!(!footer.is_empty(), "{:?}", names(&c, LabelKey::Seller));
        assert_eq!(lines_of(footer[0]), ["Industriestraße 50", "80331 München"]);
        // Its separator read as a comma glued to the street; the VAT's label before the VAT id
        // ends the address.
        let d = doc(&[
            ("Peeters Elektriciteit CommV", 48.0, 56.0),
            ("Brusselsesteenweg 176", 48.0, 68.0),
            ("3000 Leuven", 48.0, 80.0),
            ("Factuur", 430.0, 109.0),
            ("Totaalbedrag:  1.410,68 EUR", 313.0, 243.0),
            (
                "Alpha Informatica CommV,Kerkstraat 167 2000 Antwerpen BTW BE0976821672",
                100.0,
                760.0,
            ),
        ]);
        let c = find(&d);
        let footer = named(&c, "Alpha Informatica CommV");
        assert!(!footer.is_empty(), "{:?}", names(&c, LabelKey::Seller));
        assert_eq!(lines_of(footer[0]), ["Kerkstraat 167 2000 Antwerpen"]);
    }

    #[test]
    fn a_footer_register_line_without_separators_ends_the_name_at_its_form() {
        // Every `·` of the register line lost to OCR; the legal form still closes the name.
        let d = doc(&[
            ("Príjemca:", 48.0, 56.0),
            ("Horváth & Molnár a.s.", 48.0, 68.0),
            ("Priemyselná 71", 48.0, 80.0),
            ("811 01 Bratislava", 48.0, 92.0),
            ("Suma spolu:  -57,91 EUR", 313.0, 243.0),
            (
                "Inštalácie Baláž k.s. Štúrova 55 974 01 Banská Bystrica .IČ DPH SK1960480859",
                100.0,
                760.0,
            ),
        ]);
        let c = find(&d);
        let footer = named(&c, "Inštalácie Baláž k.s.");
        assert!(!footer.is_empty(), "{:?}", names(&c, LabelKey::Seller));
        for c in footer {
            assert_eq!(lines_of(c), ["Štúrova 55 974 01 Banská Bystrica"]);
        }
        // A name without a closing form keeps its line whole (no address is split off).
        let line = &doc(&[("SIA Baltija Brīvības iela 3", 100.0, 760.0)]).lines[0];
        assert_eq!(
            glued_split(&Span::from_line(line, 0, line.text.len())),
            None
        );
    }

    /// The seller candidates named `name`, as (address lines, region texts).
    fn named<'a>(c: &'a [PartyCandidate], name: &str) -> Vec<&'a PartyCandidate> {
        c.iter()
            .filter(|c| {
                c.role == LabelKey::Seller && c.name.as_ref().is_some_and(|(n, _)| n == name)
            })
            .collect()
    }

    #[test]
    fn a_register_line_whose_dots_ocr_glued_to_the_words_is_still_split() {
        // OCR reads the small dots of `name · street · town · id` without their spaces.
        let d = doc(&[
            ("Alpha Consulting LLP", 48.0, 56.0),
            ("32 Victoria Road", 48.0, 68.0),
            ("Cardiff CF10 1EP", 48.0, 80.0),
            ("Invoice", 430.0, 109.0),
            ("Total due:  GBP 729.88", 313.0, 243.0),
            (
                "Blackwood & Fairbairn LLP·134 Victoria Road ·Glasgow G2 3BZ·VAT No. GB309089547",
                100.0,
                760.0,
            ),
        ]);
        let c = find(&d);
        let footer = named(&c, "Blackwood & Fairbairn LLP");
        assert!(!footer.is_empty(), "{:?}", names(&c, LabelKey::Seller));
        assert_eq!(lines_of(footer[0]), ["134 Victoria Road", "Glasgow G2 3BZ"]);
        // A dot between two lower-case letters is part of a word (Catalan `l·l`).
        assert_eq!(sender_parts("Cal·la Serveis SL"), None);
        assert_eq!(
            sender_parts("Col·legi SL·Carrer Major 5").map(|p| p.len()),
            Some(2)
        );
    }

    #[test]
    fn a_register_lines_address_part_ends_before_the_id_printed_in_it() {
        // The separators after the name read as full stops: the street and town part runs into
        // the id.
        let d = doc(&[
            ("Rechnung", 430.0, 109.0),
            ("Summe:  18,42 EUR", 313.0, 243.0),
            (
                "Jensen & Larsen IVS · Industrivej 3. 8000 Aarhus C. CVR-nr. DK77455248",
                100.0,
                760.0,
            ),
        ]);
        let c = find(&d);
        let footer = named(&c, "Jensen & Larsen IVS");
        assert!(!footer.is_empty(), "{:?}", names(&c, LabelKey::Seller));
        assert_eq!(lines_of(footer[0]), ["Industrivej 3. 8000 Aarhus C"]);
    }

    #[test]
    fn a_register_line_set_in_columns_gives_its_name_the_address_and_ids() {
        // The footer's `name   street   town   id` with gaps instead of dots (or the dots lost
        // to OCR): the name's candidate takes the street and town, and the id into its region.
        let d = doc(&[
            ("ТОВ \"Агроторг\"", 48.0, 56.0),
            ("вул. Шевченка, буд. 159", 48.0, 68.0),
            ("61000, м. Харків", 48.0, 80.0),
            ("Рахунок на оплату", 430.0, 109.0),
            ("Всього з ПДВ:  18045,42 грн", 313.0, 243.0),
            ("ФОП Мельник С.І.", 100.0, 760.0),
            ("просп. Перемоги, 117", 200.0, 760.0),
            ("01001, м. Київ", 320.0, 760.0),
            ("ЄДРПОУ 88532271", 420.0, 760.0),
        ]);
        let c = find(&d);
        let footer = named(&c, "ФОП Мельник С.І.");
        assert!(!footer.is_empty(), "{:?}", names(&c, LabelKey::Seller));
        assert_eq!(
            lines_of(footer[0]),
            ["просп. Перемоги, 117", "01001, м. Київ"]
        );
        assert!(footer[0].region.iter().any(|s| s.text == "ЄДРПОУ 88532271"));
        // Two names side by side (signatures) are no register line.
        let d = doc(&[
            ("Rechnung", 430.0, 109.0),
            ("Summe:  18,42 EUR", 313.0, 243.0),
            ("Weber GmbH", 100.0, 760.0),
            ("Lindenallee 44", 200.0, 760.0),
            ("Fischer AG", 320.0, 760.0),
        ]);
        let c = find(&d);
        assert!(
            named(&c, "Weber GmbH").iter().all(|w| w.address.is_empty()),
            "{c:?}"
        );
    }

    #[test]
    fn a_nameless_register_line_in_the_footer_is_an_address() {
        let d = doc(&[
            ("Consulenze Marino S.a.s.", 48.0, 40.0),
            ("Fattura", 430.0, 109.0),
            ("Totale:  EUR 2348,82", 313.0, 357.0),
            (
                "Corso Italia 176 · 80133 Napoli (NA) · P.IVA IT01234567897",
                173.0,
                760.0,
            ),
        ]);
        let c = find_with_addresses(&d).1;
        assert!(find(&d).iter().all(|c| c.name.is_some()));
        let nameless: Vec<&PartyCandidate> = c.iter().filter(|c| c.name.is_none()).collect();
        assert_eq!(nameless.len(), 1, "{c:?}");
        assert_eq!(nameless[0].role, LabelKey::Seller);
        assert_eq!(
            lines_of(nameless[0]),
            ["Corso Italia 176", "80133 Napoli (NA)"]
        );
    }

    #[test]
    fn letterheads_set_flush_right_or_as_a_sender_line_keep_their_address() {
        // Flush right: the three lines share the right edge only.
        let d = doc(&[
            ("Colombo Trasporti S.p.A.", 400.0, 30.0),
            ("Piazza Duomo 161, 20121 Milano (MI)", 348.0, 44.0),
            ("Partita IVA IT10497667484", 395.0, 58.0),
            ("Fattura", 50.0, 100.0),
        ]);
        let c = find(&d);
        assert_eq!(
            address_of(&c, PartySource::Letterhead),
            ["Piazza Duomo 161, 20121 Milano (MI)"]
        );
        // A sender line: the parts after the name.
        let d = doc(&[
            (
                "Au bon moulin SARL - 1242 chemin de l'olive - 84340 Malaucène - France",
                110.0,
                30.0,
            ),
            ("Facture FA-2017-0010", 30.0, 90.0),
        ]);
        let c = find(&d);
        assert_eq!(
            address_of(&c, PartySource::Letterhead),
            ["1242 chemin de l'olive", "84340 Malaucène"]
        );
    }

    #[test]
    fn an_address_ends_before_its_ids_a_dated_line_and_the_next_partys_name() {
        // The ids after the address on its line are cut off; a line with a date (its label
        // unknown) is the document's, not the address's.
        let d = doc(&[
            ("Kamiński Meble Sp. z o.o.", 48.0, 40.0),
            (
                "ul. Marszałkowska 86, 50-001 Wrocław, NIP PL3988461098",
                48.0,
                60.0,
            ),
            (
                "Protokół odbioru Numer 2024-83249, Vamagu: 2024-02-27",
                48.0,
                80.0,
            ),
        ]);
        let c = find(&d);
        assert_eq!(
            address_of(&c, PartySource::Letterhead),
            ["ul. Marszałkowska 86, 50-001 Wrocław"]
        );
        // A date printed above the address ends nothing.
        let d = doc(&[
            ("KEDAI SINAR SDN BHD", 48.0, 40.0),
            ("SINCE 01/05/1998", 48.0, 52.0),
            ("NO 5, JALAN MAWAR 2", 48.0, 64.0),
            ("43000 KAJANG, SELANGOR", 48.0, 76.0),
        ]);
        let c = find(&d);
        assert_eq!(
            address_of(&c, PartySource::Letterhead),
            ["NO 5, JALAN MAWAR 2", "43000 KAJANG, SELANGOR"]
        );
        // A house number is no id (`NO. 4 & 6` on a line without a street word).
        let d = doc(&[
            ("MR. D.I.Y. (M) SDN BHD", 48.0, 40.0),
            ("GROUND FLOOR, NO. 4 & 6", 48.0, 52.0),
            ("JALAN SS 15/4B", 48.0, 64.0),
            ("47500 SUBANG JAYA, SELANGOR", 48.0, 76.0),
        ]);
        let c = find(&d);
        assert_eq!(
            address_of(&c, PartySource::Letterhead),
            [
                "GROUND FLOOR, NO. 4 & 6",
                "JALAN SS 15/4B",
                "47500 SUBANG JAYA, SELANGOR"
            ]
        );
        // Two parties under keys nobody knows: the first address ends at the second name.
        let d = doc(&[
            ("Kitu:", 48.0, 67.0),
            ("Nord Villamossági Kft.", 143.0, 67.0),
            ("Váci út 146., 9021 Győr, SE-nr. DK45377059", 143.0, 78.0),
            ("Matobu:", 48.0, 95.0),
            ("Larsen & Sørensen A/S", 143.0, 95.0),
            ("Vesterbrogade 7, 8000 Aarhus C", 143.0, 106.0),
        ]);
        let c = find(&d);
        let first = c
            .iter()
            .find(|c| {
                c.name
                    .as_ref()
                    .is_some_and(|(n, _)| n == "Nord Villamossági Kft.")
            })
            .expect("the first party");
        assert_eq!(
            first
                .address
                .iter()
                .map(|(t, _)| t.as_str())
                .collect::<Vec<_>>(),
            ["Váci út 146., 9021 Győr"]
        );
    }

    #[test]
    fn a_street_line_no_list_knows_stands_over_its_postcode_line() {
        let d = doc(&[
            ("Ferreira & Martins S.A.", 58.0, 26.0),
            ("Zona Industrial, lote 23", 70.0, 37.0),
            ("3000-150 Coimbra", 78.0, 48.0),
            ("NIF PT564748200", 80.0, 59.0),
        ]);
        let c = find(&d);
        assert_eq!(
            address_of(&c, PartySource::Letterhead),
            ["Zona Industrial, lote 23", "3000-150 Coimbra"]
        );
        // A key with its value, its label glued, is no street line.
        let d = doc(&[
            ("Kedai Sinar Sdn Bhd", 58.0, 26.0),
            ("CompanyNo:256628-W", 70.0, 37.0),
            ("43000 Kajang, Selangor", 78.0, 48.0),
        ]);
        let c = find(&d);
        assert_eq!(
            address_of(&c, PartySource::Letterhead),
            ["43000 Kajang, Selangor"]
        );
    }

    #[test]
    fn a_name_opening_with_its_legal_form_ends_on_a_short_line_over_the_address() {
        let d = doc(&[
            ("AS Tipogrāfija", 80.0, 26.0),
            ("Liepiņš", 96.0, 38.0),
            ("Brīvības iela 111", 82.0, 50.0),
            ("LV-3001 Jelgava", 83.0, 61.0),
        ]);
        assert_eq!(
            letterhead(&d).map(|s| s.text),
            Some("AS Tipogrāfija Liepiņš".to_string())
        );
        // A town alone under the name, no address after it, is no part of the name.
        let d = doc(&[
            ("SIA Baltija", 80.0, 26.0),
            ("Rīga", 96.0, 38.0),
            ("Rēķins Nr. 12", 82.0, 70.0),
        ]);
        assert_eq!(
            letterhead(&d).map(|s| s.text),
            Some("SIA Baltija".to_string())
        );
        // The same name under a party's label.
        let d = doc(&[
            ("Paslaugų teikėjas:", 50.0, 50.0),
            ("AB Elektra", 50.0, 62.0),
            ("Žukauskas", 50.0, 74.0),
            ("Laisvės al. 37", 50.0, 86.0),
            ("LT-92100 Klaipėda", 50.0, 98.0),
        ]);
        let c = find(&d);
        assert!(
            names(&c, LabelKey::Seller)
                .contains(&(PartySource::Labelled, "AB Elektra Žukauskas".to_string())),
            "{:?}",
            names(&c, LabelKey::Seller)
        );
    }
}
