//! Candidate extraction: every value that could fill a Result field, with where it was printed.
//!
//! - [`dates`]: numeric and written dates in six languages.
//! - [`amounts`]: amounts in every common format, currencies.
//! - [`ids`]: IBANs, VAT / tax / registration ids, BIC, e-mail, phone.
//! - [`labels`]: the multilingual label vocabulary.
//! - [`parties`]: party blocks (seller, buyer) from labels and geometry.
//! - [`tables`]: line-item tables from word geometry, with their cells.
//! - [`receipt`]: whether the document is a till receipt, and its receipt readings.
//! - [`language`]: the document's language.
//! - [`titles`]: the phrases that name a document's type (its title).
//!
//! [`extract`] computes everything once (values, label hits per line, tables, party blocks, the
//! document style); the field stage ([`crate::fields`]) reads only the [`Candidates`] and never
//! calls back into these finders. Which label stands next to a candidate is decided there.

pub mod amounts;
pub mod dates;
pub mod ids;
pub mod item_blocks;
pub mod labels;
pub mod language;
pub mod parties;
pub mod receipt;
pub mod rows;
pub mod tables;
pub mod taxes;
pub mod titles;

use crate::types::{CleanDocument, Line, Source, Span};
use labels::{LabelHit, LabelKey};
use parties::PartyCandidate;
use serde::{Deserialize, Serialize};
use tables::TableLayout;

/// What a candidate is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum CandidateKind {
    /// A date, value `YYYY-MM-DD`.
    Date,
    /// A money amount or quantity, value a canonical decimal.
    Amount,
    /// A currency, value ISO 4217.
    Currency,
    /// An IBAN, value without spaces.
    Iban,
    /// A tax / VAT / registration id, value normalised, `scheme` says which.
    TaxId,
    /// A document number.
    DocNumber,
    /// A BIC / SWIFT code.
    Bic,
    /// An e-mail address.
    Email,
    /// A phone number.
    Phone,
    /// A reference number: after a contract or order label (`label` says which), or, with no
    /// label, the number-like value of a `Key:` whose key the vocabulary does not know (the
    /// document number's structural fallback).
    Reference,
}

/// One candidate value.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Candidate {
    /// Kind.
    pub kind: CandidateKind,
    /// Canonical value.
    pub value: String,
    /// Sub-kind: tax id scheme (`EU_VAT`, `UA_EDRPOU`, `RU_INN`, ...), `percent` for amounts
    /// followed by `%`, `int` for amounts without decimals.
    pub scheme: Option<String>,
    /// Where it was printed.
    pub span: Span,
    /// Whether a check digit / checksum verified (None where the scheme has none).
    pub checksum_valid: Option<bool>,
    /// Currency printed with an amount (ISO 4217).
    #[serde(default)]
    pub currency: Option<String>,
    /// Digits after the decimal separator of an amount.
    #[serde(default)]
    pub decimals: u32,
    /// The label that introduced the value (document numbers, labelled ids, phones, BICs).
    #[serde(default)]
    pub label: Option<LabelKey>,
    /// Whether a numeric date could be read with day and month swapped.
    #[serde(default)]
    pub ambiguous: bool,
}

/// Everything candidate extraction found, computed once per document.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Candidates {
    /// All value candidates.
    pub items: Vec<Candidate>,
    /// Line-item tables with their cells, found by their header row.
    pub tables: Vec<TableLayout>,
    /// The line-item rows found by their arithmetic ([`rows::find`]), where any balance.
    pub item_table: Option<TableLayout>,
    /// Label hits of every line (index = line index).
    pub line_labels: Vec<Vec<LabelHit>>,
    /// Title hits of every line, searched alone (a title word inside a longer label phrase
    /// counts here, not in `line_labels`).
    pub line_titles: Vec<Vec<LabelHit>>,
    /// Lines that list other documents ([`listed_documents`]): `Rechnung 2023-117 vom
    /// 03.02.2023  1.234,50` under open items, a collective invoice's delivery notes. Their title
    /// words name no type of this document and introduce no number of its own.
    pub listed_lines: Vec<bool>,
    /// Lines of a list of dated amounts ([`dated_lists`]): a payment schedule's instalments,
    /// open items, payments received. Their dates are no issue or due date of the document.
    pub dated_lines: Vec<bool>,
    /// Places that may name a party (seller, buyer, consignee).
    pub parties: Vec<PartyCandidate>,
    /// Addresses printed without a name ([`parties::find_with_addresses`]): for a seller
    /// printed without its address.
    pub addresses: Vec<PartyCandidate>,
    /// Label hits inside each party candidate's name (same index as `parties`; a title or a
    /// `Guest Name:` read as a name shows here).
    pub party_name_labels: Vec<Vec<LabelHit>>,
    /// Document-wide conventions: date order, decimal separator, language, receipt or not.
    pub style: DocStyle,
    /// What a till receipt's own reading found (only for receipts).
    pub receipt: Option<receipt::ReceiptReading>,
    /// VAT summary rows found by their arithmetic (`rate x base = amount`).
    pub tax_rows: Vec<taxes::TaxRow>,
    /// Lines with one rate and one amount after it (per-rate VAT printed without its base).
    pub rate_lines: Vec<taxes::RateLine>,
    /// The rate each tax code of the VAT summary stands for (`A MwSt. 19% ...`: `A` is 19 %),
    /// for item rows that print the code instead of the rate ([`taxes::code_rates`]).
    pub code_rates: Vec<(String, rust_decimal::Decimal)>,
    /// The VATs that two or more rate lines of distinct rates make together.
    pub rate_sums: Vec<taxes::RateSum>,
    /// Other readings of amounts that OCR broke with a space (`1162 20,96` as `116220.96`,
    /// [`amounts::joined_readings`]): no values of their own, only for the printed arithmetic
    /// of the totals to confirm. Index `items.len() + k` names the `k`-th
    /// ([`Candidates::amount_at`]).
    pub ocr_amounts: Vec<Candidate>,
}

impl Candidate {
    /// Whether a label hit of the candidate's line stands before it: it ends where the candidate
    /// starts or before, or within the currency printed in front of the amount (a label
    /// absorbs the currency after it, `Totale netto: EUR`, which the amount `EUR 1.266,96`
    /// claims as well).
    pub fn follows(&self, h: &LabelHit) -> bool {
        let prefix = self
            .span
            .text
            .find(|ch: char| ch.is_ascii_digit() || matches!(ch, '-' | '+' | '(' | '−'))
            .unwrap_or(0);
        h.end <= self.span.start || h.start < self.span.start && h.end <= self.span.start + prefix
    }
}

impl Candidates {
    /// Whether a candidate is a money amount of this document ([`is_money`]).
    pub fn is_money(&self, c: &Candidate) -> bool {
        is_money(c, self.style.money)
    }

    /// Whether a candidate stands on a line of a list of dated amounts
    /// ([`Candidates::dated_lines`]).
    pub fn on_dated_line(&self, c: &Candidate) -> bool {
        self.dated_lines.get(c.span.line).copied().unwrap_or(false)
    }

    /// The candidate of an index into `items`, or past its end into `ocr_amounts`.
    pub fn amount_at(&self, i: usize) -> Option<&Candidate> {
        self.items
            .get(i)
            .or_else(|| self.ocr_amounts.get(i.checked_sub(self.items.len())?))
    }

    /// The readings of amounts OCR broke with a space ([`Candidates::ocr_amounts`]), each with
    /// its index for [`Candidates::amount_at`].
    pub fn joined_amounts(&self) -> impl Iterator<Item = (usize, &Candidate)> {
        let base = self.items.len();
        self.ocr_amounts
            .iter()
            .enumerate()
            .map(move |(k, c)| (base + k, c))
    }

    /// Candidates of one kind.
    pub fn of(&self, kind: CandidateKind) -> impl Iterator<Item = &Candidate> {
        self.items.iter().filter(move |c| c.kind == kind)
    }

    /// Label hits of a line (none for an unknown line).
    pub fn labels_of(&self, line: usize) -> &[LabelHit] {
        self.line_labels.get(line).map_or(&[], Vec::as_slice)
    }

    /// Whether a line carries a label of `key`.
    pub fn line_has(&self, line: usize, key: LabelKey) -> bool {
        self.labels_of(line).iter().any(|h| h.key == key)
    }

    /// The tables the line items are read from: the rows found by their arithmetic where any
    /// balance, else the tables found by their header.
    pub fn item_tables(&self) -> Vec<&TableLayout> {
        match &self.item_table {
            Some(t) => vec![t],
            None => self.tables.iter().collect(),
        }
    }

    /// Lines that are table bodies.
    pub fn table_lines(&self, lines: usize) -> Vec<bool> {
        table_lines(&self.tables, lines)
    }
}

/// Document-wide reading conventions, decided once per document.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct DocStyle {
    /// Numeric dates are month-first (`12/31/2024`).
    pub month_first: bool,
    /// Decimal separator of the document's amounts.
    pub decimal: Option<char>,
    /// Which printed numbers are money amounts ([`is_money`]): two decimals, whole units, or a
    /// spreadsheet's shortest forms.
    pub money: amounts::MoneyPrint,
    /// The document's language (ISO 639-1), where its words tell.
    pub language: Option<&'static str>,
    /// Whether the document reads as a till receipt ([`receipt::is_receipt`]).
    pub receipt: bool,
}

impl DocStyle {
    /// Detects the conventions of a document.
    pub fn detect(doc: &CleanDocument) -> DocStyle {
        let numbers = amounts::number_style(doc.lines.iter().map(|l| l.text.as_str()));
        // Office documents' cells print exact values in their shortest form (`922.3`).
        let office = doc.pages.iter().any(|p| p.source == Source::Office);
        let money = if numbers.whole_units {
            amounts::MoneyPrint::WholeUnits
        } else if numbers.shortest && office {
            amounts::MoneyPrint::Shortest
        } else {
            amounts::MoneyPrint::Cents
        };
        DocStyle {
            month_first: dates::document_is_month_first(doc.lines.iter().map(|l| l.text.as_str())),
            decimal: numbers.decimal,
            money,
            language: language::detect(doc),
            receipt: receipt::is_receipt(doc),
        }
    }
}

/// Which of a document's `lines` are rows of a line-item table's body.
fn table_lines<'a>(tables: impl IntoIterator<Item = &'a TableLayout>, lines: usize) -> Vec<bool> {
    let mut out = vec![false; lines];
    for l in tables
        .into_iter()
        .flat_map(|t| &t.rows)
        .flat_map(|r| &r.lines)
    {
        if let Some(x) = out.get_mut(*l) {
            *x = true;
        }
    }
    out
}

/// Whether a candidate is a money amount: two decimals and no scheme (no percentage), or what
/// else the document prints its money as ([`amounts::MoneyPrint`]).
pub fn is_money(c: &Candidate, money: amounts::MoneyPrint) -> bool {
    c.kind == CandidateKind::Amount && money.is_money(c.decimals, c.scheme.as_deref())
}

fn cand(kind: CandidateKind, value: String, line: &Line, s: usize, e: usize) -> Candidate {
    Candidate {
        kind,
        value,
        scheme: None,
        span: Span::from_line(line, s, e),
        checksum_valid: None,
        currency: None,
        decimals: 0,
        label: None,
        ambiguous: false,
    }
}

/// The candidate of an amount found on a line: `percent` and `int` schemes, its currency and
/// decimals.
fn amount_cand(a: &amounts::AmountMatch, line: &Line) -> Candidate {
    let mut c = cand(
        CandidateKind::Amount,
        a.value.to_string(),
        line,
        a.start,
        a.end,
    );
    c.currency = a.currency.map(Into::into);
    c.decimals = a.decimals;
    c.scheme = if a.percent {
        Some("percent".into())
    } else if a.decimals == 0 {
        Some("int".into())
    } else {
        None
    };
    c
}

fn overlaps(ranges: &[(usize, usize)], s: usize, e: usize) -> bool {
    ranges.iter().any(|&(a, b)| a < e && s < b)
}

/// Words that may stand between a number label and its value (`Nr.`, `No`, `#`, `:`).
const NUMBER_FILLERS: &[&str] = &[
    "°",
    "no",
    "nr",
    "n",
    "number",
    "nummer",
    "numéro",
    "numer",
    "#",
    "no.",
    "nr.",
    "n°",
    "номер",
    "de",
    "of",
];

/// Number words that end a noun compounded with them (`Documentnr.`, `Dokumentnummer`,
/// `ČekaNr.`), lower case.
const COMPOUND_NUMBER_WORDS: &[&str] = &["nummer", "numero", "número", "number", "nr"];

/// Whether a word names no other field than the document number: no label of the vocabulary
/// but a number word or a title is in it (`pièce`, `documento`, `Dokument`; never `TVA`,
/// `Kunden`, `Tel`).
fn names_no_other_field(word: &str) -> bool {
    labels::find_labels(word).iter().all(|h| {
        matches!(
            h.key,
            LabelKey::Number | LabelKey::NumberGeneric | LabelKey::Title
        )
    })
}

/// Where a word begins with a noun compounded with a number word (`Documentnr.`,
/// `Dokumentnummer`, `ČekaNr.6/4789`, `DocNo.`): the byte length of the compound, letters only
/// (what follows, `.`, `:` or a glued value, is not counted). The noun has three letters or
/// more and, like the whole compound, names no other field (`Kundennr.`, `Telnr.`,
/// `Steuernummer` are no document's number). `no` counts only as a capitalised word glued on
/// with its dot (`DocNo.`: `Casino.` is none).
fn number_compound(word: &str) -> Option<usize> {
    let n = word.len() - word.trim_start_matches(char::is_alphabetic).len();
    let letters = &word[..n];
    let lower = letters.to_lowercase();
    let suffix = COMPOUND_NUMBER_WORDS
        .iter()
        .find(|w| lower.ends_with(*w))
        .map(|w| w.len())
        .or_else(|| (letters.ends_with("No") && word[n..].starts_with('.')).then_some(2))?;
    // The suffix is ASCII or `número` (same byte length in both cases).
    let noun = letters.get(..letters.len().checked_sub(suffix)?)?;
    (noun.chars().count() >= 3
        && noun.chars().last().is_some_and(char::is_alphabetic)
        && names_no_other_field(noun)
        && names_no_other_field(letters))
    .then_some(n)
}

/// Whether a value has a bank account's shape: digit groups of eight (`12345678-12345678`,
/// Hungarian and others' domestic accounts) or an IBAN.
fn account_shaped(v: &str) -> bool {
    let groups: Vec<&str> = v.split(['-', ' ']).filter(|g| !g.is_empty()).collect();
    let eights = groups.len() >= 2
        && groups
            .iter()
            .all(|g| g.len() == 8 && g.chars().all(|c| c.is_ascii_digit()));
    eights || !ids::find_ibans(v).is_empty()
}

/// Whether a label hit starts its token: `n` of the legal form `S.n.c.` is no number word,
/// nor the first letter of an initialism (`N.V.`, a Dutch company's form); `Nr.:`, `N.o:`
/// (`N.º`) and `#123` are.
fn starts_token(text: &str, h: &LabelHit) -> bool {
    let start = text[..h.start]
        .rfind(char::is_whitespace)
        .map_or(0, |p| p + 1);
    let prefix = &text[start..h.start];
    let mut after = text[h.end..].chars();
    let initialism = text[h.start..h.end].chars().count() == 1
        && after.next() == Some('.')
        && after
            .next()
            .is_some_and(|c| c.is_alphabetic() && !matches!(c, 'o' | 'O' | 'º'))
        && after.next() == Some('.');
    if initialism {
        return false;
    }
    // An abbreviated word of the vocabulary glued before it (`Doc.n.:`, `Fact.nr`).
    let word = prefix.trim_end_matches('.');
    let glued_word = prefix.ends_with('.')
        && word.chars().count() >= 3
        && word.chars().all(char::is_alphabetic)
        && labels::is_vocabulary_word(word);
    glued_word || prefix.chars().all(|c| !c.is_alphanumeric() && c != '.')
}

/// Whether a number label continues another label, so that the number after it is that
/// label's: any number word after a [`LabelKey::Corrects`] label (`Corrects invoice No.`), a
/// generic one (`No.`) after any label but a title or a number's (`TEL NO.`, `Reg. No.`; while
/// `Invoice No.` is the document's). A column's word inside a title's phrase (`Акт надання
/// послуг No 840/21`: `послуг` heads a description column elsewhere) continues the title.
fn continues_label(text: &str, hits: &[LabelHit], h: &LabelHit) -> bool {
    let in_title = |o: &LabelHit| {
        o.key.is_column()
            && hits.iter().any(|t| {
                t.key == LabelKey::Title
                    && t.end <= o.start
                    && text[t.end..o.start]
                        .chars()
                        .all(|c| c.is_alphabetic() || c == ' ' || c == '-')
            })
    };
    hits.iter().any(|o| {
        let adjacent = o.end <= h.start
            && text[o.end..h.start]
                .chars()
                .all(|c| c == ' ' || c == '.' || c == ':' || c == '-');
        adjacent
            && !in_title(o)
            && (o.key == LabelKey::Corrects
                || (h.key == LabelKey::NumberGeneric
                    && !matches!(
                        o.key,
                        LabelKey::Title
                            | LabelKey::Number
                            | LabelKey::NumberGeneric
                            | LabelKey::DateWeak
                    )))
    })
}

/// The cell of a line that holds a label: between the column gaps (two spaces) around it (`5 rue
/// de la Paix, 75002 Paris  N° 88213`: the address in the column left of the number's is not
/// the label's cell).
fn label_cell<'t>(text: &'t str, h: &LabelHit) -> &'t str {
    let start = text[..h.start].rfind("  ").map_or(0, |g| g + 2);
    let end = text[h.end..].find("  ").map_or(text.len(), |g| h.end + g);
    &text[start..end]
}

/// The text of the cell after a label ending at `from`: up to a column gap (two spaces).
fn cell_after(text: &str, from: usize) -> &str {
    let rest = text.get(from..).unwrap_or("");
    let rest = rest.trim_start_matches([' ', ':', '.']);
    rest.split("  ").next().unwrap_or("").trim()
}

/// A document type's or series' short letter prefix printed apart from the number's digits
/// (`WZ`, `FT`, `BV`): one to four capitals.
fn series_prefix(word: &str) -> bool {
    (1..=4).contains(&word.chars().count()) && word.chars().all(char::is_uppercase)
}

/// The document-number value after a label ending at `from`, if it sits on the same line.
pub fn number_after(text: &str, from: usize) -> Option<(usize, usize)> {
    let mut pos = from;
    let bytes = text.as_bytes();
    // Whether the word before `pos` is a number word (`N.º`, `No.`, `Nr`), after which one noun
    // may stand before the value (`N.º documento 2022-12970`).
    let is_number_word = |w: &str| {
        let w = w
            .trim_end_matches(['.', ':', '°', 'º'])
            .trim_end_matches('.')
            .to_lowercase();
        matches!(
            w.as_str(),
            "n" | "no" | "n.o" | "nr" | "nro" | "num" | "#" | "№" | "o"
        )
    };
    let mut after_number_word = text[..from]
        .split(' ')
        .next_back()
        .is_some_and(is_number_word);
    loop {
        // `;` is OCR's reading of the key's colon (`Nr.; 520/2025`); the number sign of the key
        // (`n°`, `№`) with its colon glued to the value (`n°:F-2020-03041`, OCR's reading).
        loop {
            if pos < bytes.len()
                && matches!(bytes[pos], b' ' | b':' | b';' | b'.' | b'#' | b'-' | b'\t')
            {
                pos += 1;
            } else if let Some(sign) = text
                .get(pos..)
                .and_then(|r| r.chars().next())
                .filter(|c| matches!(c, '°' | 'º' | '№'))
            {
                pos += sign.len_utf8();
            } else {
                break;
            }
        }
        let rest = text.get(pos..)?;
        let end = rest.find(' ').map_or(text.len(), |e| pos + e);
        let word = &text[pos..end];
        let lw = word.to_lowercase();
        let lw = lw.trim_end_matches([':', '.']);
        // Fillers, and the rest of a label (`Numer WZ:`, `Invoice No.:`; `N° de pièce :`, the
        // colon set apart as French prints it) naming no other field (`N° TVA :` is the VAT
        // id's), or a noun compounded with a number word (`Leveringsbon Documentnr. 2019/055`).
        let keyed = word.ends_with(':') || text[end..].starts_with(" :");
        let label_rest = (keyed
            && !word.chars().any(|c| c.is_ascii_digit())
            && names_no_other_field(word.trim_end_matches(':')))
            || number_compound(word)
                .is_some_and(|n| word[n..].chars().all(|c| c == '.' || c == ':'));
        // The ordinal of `n.º` printed apart (`Talão n.º 061066`, read `n. o`).
        let ordinal = matches!(lw, "o" | "º") && text[..pos].ends_with('.');
        if !word.is_empty()
            && (NUMBER_FILLERS.contains(&lw) || lw == "n°" || lw == "no°" || label_rest || ordinal)
        {
            after_number_word = ordinal || is_number_word(word);
            pos = end;
            continue;
        }
        // One noun after the number word naming no other field, a value with digits after it
        // (or its short letter prefix, then digits: `Nr. document BV 9646`).
        let mut next = text[end..].split_whitespace();
        let digits = |v: &str| v.chars().any(|c| c.is_ascii_digit());
        let value_follows = match next.next() {
            Some(v) if digits(v) => true,
            Some(v) => series_prefix(v) && next.next().is_some_and(digits),
            None => false,
        };
        if after_number_word
            && word.chars().count() >= 4
            && word.chars().all(char::is_alphabetic)
            && names_no_other_field(word)
            && value_follows
        {
            after_number_word = false;
            pos = end;
            continue;
        }
        if word.is_empty() || word.starts_with('(') {
            return None;
        }
        // A short letter prefix printed apart from the digits (`WZ 58/05/2024`, `RE 2024-17`),
        // or from a series and its number (Portugal's `FT A/4811`, `FR 2024A/15`).
        if series_prefix(word)
            && let Some((s, e)) = number_after(text, end)
            && s == end + 1
            && (text[s..e].starts_with(|c: char| c.is_ascii_digit()) || text[s..e].contains('/'))
        {
            return Some((pos, e));
        }
        let trimmed = word.trim_end_matches([',', ';', ':', ')', '.']);
        // The next label glued on by OCR (`FA202411-3403Date:`, `A-5915Fecha factura:`): the
        // letters after the last digit, before the colon or a word of the label vocabulary,
        // are not the number's.
        let head = trimmed.trim_end_matches(char::is_alphabetic);
        let tail = &trimmed[head.len()..];
        let glued_label = (word.ends_with(':') || labels::is_vocabulary_word(tail))
            && tail.len() >= 3
            && head.ends_with(|c: char| c.is_ascii_digit());
        let stop = if glued_label {
            head.len()
        } else {
            trimmed.len()
        };
        let mut lead = word.len() - word.trim_start_matches(['(', '№', '°']).len();
        // A noun compounded with a number word glued before the digits (`ČekaNr.6/4789`).
        if let Some(n) = number_compound(&word[lead..]) {
            let glue =
                word[lead + n..].len() - word[lead + n..].trim_start_matches(['.', ':']).len();
            if word[lead + n + glue..].starts_with(|c: char| c.is_ascii_digit()) {
                lead += n + glue;
            }
        }
        // The label's own last word glued before the digits (`Nr paragonu4555`): a word of the
        // vocabulary of four letters or more is no number prefix (`INV2024` stays whole).
        if let Some(rest) = word.get(lead..stop) {
            let digits = rest.trim_start_matches(char::is_alphabetic);
            let prefix = &rest[..rest.len() - digits.len()];
            if prefix.chars().count() >= 4
                && digits.starts_with(|c: char| c.is_ascii_digit())
                && labels::is_vocabulary_word(prefix)
            {
                lead += prefix.len();
            }
        }
        let value = word.get(lead..stop).unwrap_or("");
        let ok = value.chars().any(|c| c.is_ascii_digit())
            && value.chars().count() <= 30
            && value
                .chars()
                .all(|c| c.is_alphanumeric() || "-/._#".contains(c));
        return ok.then_some((pos + lead, pos + stop));
    }
}

/// The token of the line below `line` that sits under `hit` (for labels printed above values).
fn value_below<'a>(
    doc: &'a CleanDocument,
    line: &Line,
    hit_box: &crate::types::BBox,
) -> Option<(&'a Line, usize, usize)> {
    let tol = hit_box.height();
    let under = |b: &crate::types::BBox| b.x1 >= hit_box.x0 - tol && b.x0 <= hit_box.x1 + tol;
    // A line beside the label's, starting above its bottom, with nothing under the label (a
    // scan's stray mark at the margin) is passed over; the first line below it is the one.
    let mut below = doc.lines.iter().skip(line.index + 1).skip_while(|next| {
        next.page == line.page
            && next.bbox.y0 < line.bbox.y1
            && !next.tokens.iter().any(|t| under(&t.bbox))
    });
    below
        .next()
        .filter(|next| {
            next.page == line.page
                && next.bbox.y0 - line.bbox.y1 <= 2.0 * line.bbox.height().max(1.0)
        })
        .and_then(|next| {
            next.tokens
                .iter()
                .zip(&next.token_spans)
                .find(|(t, _)| under(&t.bbox))
                .map(|(_, &(s, e))| (next, s, e))
        })
}

/// The token of the line below sitting under the text `start..end` of `line`
/// ([`value_below`]).
fn token_below<'a>(
    doc: &'a CleanDocument,
    line: &Line,
    start: usize,
    end: usize,
) -> Option<(&'a Line, usize, usize)> {
    let (bb, _) = line.range_bbox(start, end)?;
    value_below(doc, line, &bb)
}

/// The document-number value starting exactly at `s` ([`number_after`] reads one there, a
/// letter prefix printed apart included: `FS 358/2022`).
fn number_at(text: &str, s: usize) -> Option<(usize, usize)> {
    number_after(text, s).filter(|&(s2, _)| s2 == s)
}

/// Finds all candidates in a cleaned document: every value, the label hits of every line, the
/// tables with their cells (amount cells parsed in the document's style), the party blocks, the
/// document style and, for a receipt, its receipt reading.
pub fn extract(doc: &CleanDocument) -> Candidates {
    let style = DocStyle::detect(doc);
    let line_labels: Vec<Vec<LabelHit>> = doc
        .lines
        .iter()
        .map(|l| labels::find_labels(&l.text))
        .collect();
    let line_titles: Vec<Vec<LabelHit>> = doc
        .lines
        .iter()
        .map(|l| labels::find_labels_where(&l.text, |k| k == LabelKey::Title))
        .collect();
    let mut items = Vec::new();
    for (line, hits) in doc.lines.iter().zip(&line_labels) {
        extract_line(doc, line, hits, &style, &mut items);
    }
    drop_vat_ids_as_numbers(&mut items);
    wrapped_dates(doc, &style, &mut items);
    // The candidates of each line, looked up once for the two list finders.
    let mut by_line: Vec<Vec<&Candidate>> = vec![Vec::new(); doc.lines.len()];
    for c in &items {
        if let Some(v) = by_line.get_mut(c.span.line) {
            v.push(c);
        }
    }
    let listed_lines = listed_documents(doc, &line_titles, &by_line);
    let dated_lines = dated_lists(doc, &line_labels, &by_line, style.money);
    drop(by_line);
    for c in items.iter_mut().filter(|c| {
        c.kind == CandidateKind::DocNumber
            && c.label == Some(LabelKey::Title)
            && listed_lines.get(c.span.line).copied().unwrap_or(false)
    }) {
        c.label = None;
    }
    let mut tables = tables::find_tables(doc);
    for cell in tables
        .iter_mut()
        .flat_map(|t| &mut t.rows)
        .flat_map(|r| &mut r.cells)
    {
        cell.amount = tables::cell_value(cell, style.decimal);
    }
    for t in &mut tables {
        tables::drop_summary_rows(t, doc, style.decimal);
    }
    tables::drop_running_sums(&mut tables);
    // Items printed as `Key: value` blocks, where a header's columns hold none (see below).
    let blocks = tables
        .iter()
        .flat_map(|t| &t.rows)
        .all(|r| !r.named())
        .then(|| item_blocks::find(doc, &style, &line_labels))
        .flatten();
    // The lines of every table's rows, the items' blocks included: a `Réf.:` there is an
    // article's, not the document's. (Before the OCR-joined readings are counted: their
    // indices follow the candidates'.)
    let in_table = table_lines(tables.iter().chain(&blocks), doc.lines.len());
    unknown_key_numbers(doc, &line_labels, &in_table, &style, &mut items);
    let receipt = style.receipt.then(|| receipt::read(doc));
    let ocr_amounts: Vec<Candidate> = doc
        .lines
        .iter()
        .flat_map(|line| {
            let mut joined = amounts::joined_readings(&line.text, style.decimal);
            if style.money == amounts::MoneyPrint::WholeUnits {
                joined.extend(amounts::joined_whole_readings(&line.text, style.decimal));
            }
            joined.into_iter().map(move |a| {
                let mut c = amount_cand(&a, line);
                c.scheme = Some(taxes::JOINED.into());
                c
            })
        })
        .collect();
    let vat_line = |l: usize| {
        line_labels
            .get(l)
            .is_some_and(|h| h.iter().any(|h| h.key == LabelKey::Vat))
    };
    let tax_rows = taxes::find(&items, &ocr_amounts, style.money, vat_line);
    let summary_line = |l: usize| {
        !in_table.get(l).copied().unwrap_or(false)
            && line_labels.get(l).is_some_and(|h| {
                h.iter()
                    .any(|h| h.key.is_totals() && h.key != LabelKey::Vat)
            })
    };
    let rate_lines = taxes::rate_lines(&items, style.money, vat_line, summary_line);
    let rate_sums = taxes::rate_sums(&rate_lines, &items, &ocr_amounts);
    let code_rates = taxes::code_rates(doc, &items, style.money);
    let rates: Vec<rust_decimal::Decimal> = tax_rows.iter().map(|r| r.rate.1).collect();
    // Items printed as `Key: value` blocks, where a header's columns hold none (a row naming
    // nothing, `20%  35,507.77  7,101.55`, is a tax summary's) and the arithmetic rows are
    // fewer than the blocks (one payment schedule's line read as a row, `2020-10-26 28832,6 1
    // EUR`, beside seven blocks that sum).
    let arithmetic = rows::find(doc, &style, &line_labels, &rates, &tables);
    let mut item_table = match (arithmetic, blocks) {
        (Some(a), Some(b)) if b.rows.len() > a.rows.len() => Some(b),
        (a, b) => a.or(b),
    };
    // Rows by their arithmetic that do not sum to an amount printed under them, and a header's
    // rows that do, each with a name, among them every balanced row's line: the header's rows
    // are the items (the arithmetic read a sub-line's price basis, `1 kg = 81,06  81,06`, as
    // the only row; one row balanced against its amount with VAT and the others' amounts with
    // VAT aligned under it; or OCR garbled the arithmetic of a few rows: `25 шт.` for 2,5). Where
    // the header's rows outnumber the balanced ones two to one, they are the items as the header
    // reads them; where they are only more, the balanced rows stand in for the header's rows on
    // their lines (a scan's header rows may have misplaced their columns).
    let header_items = item_table
        .as_ref()
        .and_then(|t| header_items(t, &tables, doc, style.decimal));
    if let Some(items) = header_items {
        item_table = items;
    }
    if let Some(t) = item_table.as_mut() {
        gross_from_header(t, &tables);
        priced_from_header(t, &tables, style.decimal);
    }
    for cell in tables
        .iter_mut()
        .chain(item_table.as_mut())
        .flat_map(|t| &mut t.rows)
        .flat_map(|r| &mut r.cells)
        .filter(|c| c.key == LabelKey::ColSku)
    {
        if let Some(sku) = tables::bare_sku(&cell.text) {
            cell.text = sku.to_string();
        }
    }
    let (parties, addresses) = parties::find_with_addresses(doc);
    let party_name_labels = parties
        .iter()
        .map(|p| {
            p.name
                .as_ref()
                .map_or_else(Vec::new, |(n, _)| labels::find_labels(n))
        })
        .collect();
    Candidates {
        items,
        tables,
        item_table,
        line_labels,
        line_titles,
        listed_lines,
        dated_lines,
        parties,
        addresses,
        party_name_labels,
        style,
        receipt,
        tax_rows,
        rate_lines,
        rate_sums,
        code_rates,
        ocr_amounts,
    }
}

/// The amount with VAT of rows found by their arithmetic, from the header table's row on the
/// same line where the arithmetic left it out (no rate to confirm it: OCR read `20%` as
/// `2096`): the header names the column, and the amount exceeds the row's net by at most a VAT
/// can add ([`taxes::is_vat_rate`]).
fn gross_from_header(t: &mut TableLayout, tables: &[TableLayout]) {
    for row in t.rows.iter_mut().filter(|r| {
        r.source == tables::RowSource::Balanced && r.cell(LabelKey::ColAmountGross).is_none()
    }) {
        let Some(net) = row.cell(LabelKey::ColAmount).and_then(|c| c.amount) else {
            continue;
        };
        let gross = header_rows_beside(row, net, tables)
            .find_map(|h| h.cell(LabelKey::ColAmountGross))
            .filter(|g| {
                g.amount.is_some_and(|g| {
                    net > rust_decimal::Decimal::ZERO
                        && g > net
                        && taxes::is_vat_rate((g - net) * rust_decimal::Decimal::ONE_HUNDRED / net)
                })
            })
            .cloned();
        if let Some(g) = gross {
            row.cells.push(g);
        }
    }
}

/// The header tables' rows on the first line of `row` whose amount is `amount`: the same row as
/// the header reads it.
fn header_rows_beside<'h>(
    row: &tables::Row,
    amount: rust_decimal::Decimal,
    tables: &'h [TableLayout],
) -> impl Iterator<Item = &'h tables::Row> {
    let first = row.lines.iter().min().copied();
    tables
        .iter()
        .flat_map(|h| &h.rows)
        .filter(move |h| h.lines.iter().min().copied() == first)
        .filter(move |h| h.cell(LabelKey::ColAmount).and_then(|c| c.amount) == Some(amount))
}

/// A bare number word's value that the document prints elsewhere as a VAT id (`No
/// GB244450086` of a stamp whose `VAT Reg.` OCR lost) names that id, not the document: no
/// number candidate.
fn drop_vat_ids_as_numbers(items: &mut Vec<Candidate>) {
    let vat_ids: Vec<String> = items
        .iter()
        .filter(|c| c.kind == CandidateKind::TaxId && c.scheme.as_deref() == Some("EU_VAT"))
        .map(|c| c.value.clone())
        .collect();
    items.retain(|c| {
        !(c.kind == CandidateKind::DocNumber
            && c.label == Some(LabelKey::NumberGeneric)
            && vat_ids.contains(&c.value))
    });
}

/// The quantity and unit price of rows found by their arithmetic that read them not (OCR broke
/// the price, `247 .63`; a quantity glued to its unit, `2,5m`), from the header table's row on
/// the same line with the same amount (and the same price, where the row read one), where the
/// header's quantity times its price (less the row's discount) is that amount within its
/// rounding ([`rows::product_holds`]).
fn priced_from_header(t: &mut TableLayout, tables: &[TableLayout], decimal: Option<char>) {
    use rust_decimal::Decimal;
    let quantity = |c: &tables::Cell| {
        c.amount.or_else(|| {
            let (q, _) = rows::glued_quantity_unit(c.text.trim())?;
            amounts::parse_number(q, decimal).map(|(v, _)| v)
        })
    };
    // A price OCR split with a space (`247 .63`): its one joined reading.
    let price = |c: &tables::Cell| match amounts::joined_readings(&c.text, decimal).as_slice() {
        [one] if c.text.trim().contains(' ') => Some(one.value),
        _ => c.amount,
    };
    for row in t
        .rows
        .iter_mut()
        .filter(|r| r.cell(LabelKey::ColQty).is_none())
    {
        let Some(amount) = row.cell(LabelKey::ColAmount).and_then(|c| c.amount) else {
            continue;
        };
        let own_price = row.cell(LabelKey::ColUnitPrice).map(|c| c.amount);
        let discount = row
            .cell(LabelKey::ColDiscount)
            .and_then(|c| c.amount)
            .unwrap_or_default()
            .abs();
        let Some(h) = header_rows_beside(row, amount, tables).next() else {
            continue;
        };
        let (Some(qc), Some(pc)) = (h.cell(LabelKey::ColQty), h.cell(LabelKey::ColUnitPrice))
        else {
            continue;
        };
        let (Some(q), Some(p)) = (quantity(qc), price(pc)) else {
            continue;
        };
        if own_price.is_some_and(|own| own != Some(p)) {
            continue;
        }
        let factor = (Decimal::ONE_HUNDRED - discount) / Decimal::ONE_HUNDRED;
        if !rows::product_holds(q, p, factor, amount, amount.scale()) || q.is_zero() {
            continue;
        }
        let mut qc = qc.clone();
        qc.amount = Some(q);
        row.cells.push(qc);
        if own_price.is_none() {
            let mut pc = pc.clone();
            pc.amount = Some(p);
            row.cells.push(pc);
        }
    }
}

/// The header's rows that stand for the arithmetic's table `t` (see the call in [`extract`]):
/// `Some(None)` where the header's rows are the items as the header reads them, `Some(Some)`
/// the header's rows with the balanced rows' cells on their lines, `None` where the arithmetic's
/// table stays.
fn header_items(
    t: &TableLayout,
    tables: &[TableLayout],
    doc: &CleanDocument,
    decimal: Option<char>,
) -> Option<Option<TableLayout>> {
    if t.sums {
        return None;
    }
    // The arithmetic's own rows: those that balance (an aligned row only borrows their
    // column).
    let balanced: Vec<&tables::Row> = t
        .rows
        .iter()
        .filter(|r| r.source == tables::RowSource::Balanced)
        .collect();
    // A table continued on the next page under its header printed again: its pieces
    // joined, where every piece names the same columns.
    let joined = continued_table(tables);
    let h = tables.iter().chain(joined.as_ref()).find(|h| {
        let header_lines: Vec<usize> = h
            .rows
            .iter()
            .flat_map(|r| r.lines.iter().copied())
            .collect();
        (h.rows.len() >= 2 * balanced.len() || h.rows.len() > t.rows.len())
            && balanced
                .iter()
                .flat_map(|r| &r.lines)
                .all(|l| header_lines.contains(l))
            && h.rows.iter().all(tables::Row::named)
            && tables::rows_sum_printed(h, doc, decimal)
    })?;
    if h.rows.len() >= 2 * balanced.len() {
        return Some(None);
    }
    let mut merged = h.clone();
    for row in &mut merged.rows {
        if let Some(b) = balanced
            .iter()
            .find(|b| b.lines.first().is_some_and(|l| row.lines.contains(l)))
        {
            row.cells.clone_from(&b.cells);
            row.source = tables::RowSource::Balanced;
        }
    }
    merged.sums = true;
    Some(Some(merged))
}

/// The header tables of a document joined into one, where there are two or more and each
/// names the same columns in the same order (one table continued under its header printed
/// again on each page): the first's header and columns, every piece's rows, the last's end.
fn continued_table(tables: &[TableLayout]) -> Option<TableLayout> {
    let keys = |t: &TableLayout| t.columns.iter().map(|c| c.key).collect::<Vec<_>>();
    let (first, rest) = tables.split_first()?;
    if rest.is_empty() || rest.iter().any(|t| keys(t) != keys(first)) {
        return None;
    }
    let mut joined = first.clone();
    for t in rest {
        joined.rows.extend(t.rows.iter().cloned());
        joined.end_line = t.end_line;
    }
    joined.sums = false;
    Some(joined)
}

/// Lines of a list of dated amounts: two or more consecutive lines, each with a date and a
/// money amount right of it, the dates one under the other (their boxes overlap across),
/// of different values, and the same label keys on every line (none, `Rate fällig am` on
/// each, the title word of listed invoices on each): a payment schedule (`1.  15.02.2027
/// 154,31`), an account's open items, payments received. A header's lines of a date and an
/// amount each (`Datum: 01.02.2024  Summe: 50,00` over `Fällig: 15.02.2024  Offen: 50,00`)
/// carry different labels.
fn dated_lists(
    doc: &CleanDocument,
    line_labels: &[Vec<LabelHit>],
    by_line: &[Vec<&Candidate>],
    money: amounts::MoneyPrint,
) -> Vec<bool> {
    let on = |i: usize| by_line.get(i).into_iter().flatten().copied();
    // Per line: the first date's box across and value, where a money amount follows it.
    let dated: Vec<Option<(f32, f32, &str)>> = (0..doc.lines.len())
        .map(|i| {
            let date = on(i).find(|c| c.kind == CandidateKind::Date)?;
            on(i)
                .find(|c| c.span.start >= date.span.end && is_money(c, money))
                .map(|_| (date.span.bbox.x0, date.span.bbox.x1, date.value.as_str()))
        })
        .collect();
    let keys = |i: usize| -> Vec<LabelKey> {
        let mut k: Vec<LabelKey> = line_labels
            .get(i)
            .map_or_else(Vec::new, |h| h.iter().map(|h| h.key).collect());
        k.sort_unstable();
        k.dedup();
        k
    };
    let pair = |i: usize| {
        let (Some(Some(a)), Some(Some(b))) = (dated.get(i), dated.get(i + 1)) else {
            return false;
        };
        a.0 < b.1 && b.0 < a.1 && a.2 != b.2 && keys(i) == keys(i + 1)
    };
    let runs: Vec<Option<bool>> = (0..dated.len())
        .map(|i| run_on(doc, on(i), money, i))
        .collect();
    // The line under a run that ends on a date, where its amount wrapped: `2.042,64 RON`.
    let wrapped = |i: usize| {
        i.checked_sub(1)
            .and_then(|p| runs.get(p).copied().flatten())
            .unwrap_or(false)
            && on(i).any(|c| {
                is_money(c, money)
                    && doc.lines.get(i).is_some_and(|l| {
                        l.text
                            .get(..c.span.start)
                            .is_some_and(|p| p.trim().is_empty())
                    })
            })
    };
    (0..dated.len())
        .map(|i| {
            pair(i)
                || i.checked_sub(1).is_some_and(pair)
                || runs.get(i).copied().flatten().is_some()
                || wrapped(i)
        })
        .collect()
}

/// Whether a line runs two or more dated amounts on, one after the other with nothing but
/// separators between them: `Zahlungsplan: 15.02.2027 154,31 EUR / 15.05.2027 154,31 EUR`;
/// then whether it ends on a date whose amount wrapped to the next line. Labels between them
/// (`Datum: 01.02.2024  Summe: 50,00  Fällig: 15.02.2024  Offen: 50,00`) make a header's
/// pairs, no list.
fn run_on<'c>(
    doc: &CleanDocument,
    line: impl Iterator<Item = &'c Candidate>,
    money: amounts::MoneyPrint,
    i: usize,
) -> Option<bool> {
    let text = doc.lines.get(i).map(|l| l.text.as_str())?;
    let mut on_line: Vec<&Candidate> = line
        .filter(|c| c.kind == CandidateKind::Date || is_money(c, money))
        .collect();
    on_line.sort_by_key(|c| (c.span.start, std::cmp::Reverse(c.span.end)));
    // Dates, each with the first money amount after it, and what stands between one pair's
    // amount and the next date.
    let mut pairs = 0;
    let mut amount_end: Option<usize> = None;
    let mut date_end: Option<usize> = None;
    for c in on_line {
        if c.kind == CandidateKind::Date {
            if date_end.is_some() {
                return None;
            }
            if let Some(e) = amount_end {
                let between = text.get(e..c.span.start).unwrap_or("x");
                if between.chars().any(char::is_alphabetic) {
                    return None;
                }
            }
            date_end = Some(c.span.end);
        } else if let Some(d) = date_end
            && c.span.start >= d
        {
            pairs += 1;
            amount_end = Some(c.span.end);
            date_end = None;
        }
    }
    // Two dated amounts, or one and a date whose amount wrapped.
    (pairs + usize::from(date_end.is_some()) >= 2).then_some(date_end.is_some())
}

/// Lines that list other documents, each a title word at its start (after a position at
/// most), a number after it that the title introduces, a date and a money amount after the
/// number: `Rechnung 2023-117 vom 03.02.2023  1.234,50`, `Invoice INV-0042 of 12/01/2024
/// 88.00`. A list has two such lines or more, one under the other, of the same title word: an
/// account's open items, earlier invoices' payments, a collective invoice's delivery notes. The
/// document's own number line prints no amount, or stands alone.
fn listed_documents(
    doc: &CleanDocument,
    line_titles: &[Vec<LabelHit>],
    by_line: &[Vec<&Candidate>],
) -> Vec<bool> {
    let shape: Vec<Option<String>> = doc
        .lines
        .iter()
        .zip(line_titles)
        .enumerate()
        .map(|(i, (line, hits))| {
            let h = hits.iter().find(|h| {
                line.text
                    .get(..h.start)
                    .is_some_and(|p| p.chars().filter(|c| c.is_alphanumeric()).count() <= 2)
            })?;
            let on_line = |k: CandidateKind| {
                by_line
                    .get(i)
                    .into_iter()
                    .flatten()
                    .filter(move |c| c.kind == k && c.span.start >= h.end)
            };
            let number = on_line(CandidateKind::DocNumber)
                .filter(|c| c.label == Some(LabelKey::Title))
                .map(|c| c.span.end)
                .min()?;
            let date = on_line(CandidateKind::Date)
                .filter(|c| c.span.start >= number)
                .map(|c| c.span.end)
                .min()?;
            on_line(CandidateKind::Amount)
                .find(|c| c.span.start >= date && c.scheme.is_none() && c.decimals > 0)?;
            line.text.get(h.start..h.end).map(str::to_lowercase)
        })
        .collect();
    shape
        .iter()
        .enumerate()
        .map(|(i, word)| {
            let same = |j: Option<usize>| j.and_then(|j| shape.get(j)).is_some_and(|s| s == word);
            word.is_some() && (same(i.checked_sub(1)) || same(Some(i + 1)))
        })
        .collect()
}

/// Number-like values of `Key:` pairs whose key no label of the vocabulary names, in the upper
/// half of the first page: `Referentie: 2025/691`; the key alone with the value in the next cell
/// or on the line below, under the key; several pairs on one line (`Kivozu: 702/2020  Karudu:
/// 26/04/2020`); a grid row of keys over a row of values (`Giti:  Zefu:` over `2023-35057
/// 09/10/2023`, or keys without colons when the row below holds a date: the header grid of a
/// number and its date). A line is cut into cells at its column gaps; cells with a label hit
/// are the vocabulary's. The value holds two digits or more, is at most 25 characters of
/// letters, digits and `-/._` (a short letter prefix printed apart, `FT 2022/1754`, included),
/// and is no date, no amount with decimals and no value another candidate already holds (ids,
/// IBANs, phones). They become unlabelled [`CandidateKind::Reference`]s, in reading order, which
/// the field stage reads as the document number only when no labelled number was found.
///
/// A key the vocabulary knows only as an article-number column (`Reference:`, `Code:`,
/// `Référence :`) is such a key too outside the item tables: a table's header prints no colon
/// after its column names, and a header's `Key:` names the document's reference.
fn unknown_key_numbers(
    doc: &CleanDocument,
    line_labels: &[Vec<LabelHit>],
    in_table: &[bool],
    style: &DocStyle,
    items: &mut Vec<Candidate>,
) {
    let Some(first) = doc.pages.first() else {
        return;
    };
    let taken = |items: &[Candidate], line: usize, s: usize, e: usize| {
        items.iter().any(|c| {
            c.span.line == line
                && c.span.start < e
                && s < c.span.end
                && c.kind != CandidateKind::Amount
        })
    };
    let number_like = |v: &str| {
        let digits = v.chars().filter(char::is_ascii_digit).count();
        let decimals = v
            .rfind([',', '.'])
            .is_some_and(|p| v.len() - p == 3 && v[p + 1..].chars().all(|c| c.is_ascii_digit()));
        digits >= 2
            && v.chars().count() <= 25
            && v.split(' ').count() <= 2
            && v.chars()
                .all(|c| c.is_alphanumeric() || "-/._ ".contains(c))
            && !decimals
            && dates::find_dates(v, style.month_first).is_empty()
    };
    let key_ok = |key: &str| {
        (3..=30).contains(&key.chars().count())
            && key.split_whitespace().count() <= 3
            && key
                .chars()
                .all(|c| c.is_alphabetic() || c == ' ' || c == '.')
            && key.chars().next().is_some_and(char::is_alphabetic)
    };
    // The value starting at `s` of a line, a letter prefix included: the whole of its cell
    // (`447 691 584 365` after an unknown key is a phone, not a number followed by others).
    // `end`: where the value's cell ends when a key follows on the line without a column gap.
    let value_at = |l: &Line, s: usize, end: Option<usize>| -> Option<(usize, usize)> {
        let (vs, ve) = number_at(&l.text, s)?;
        let gap = l.text[ve..].find("  ").map_or(l.text.len(), |g| ve + g);
        let cell_end = end.map_or(gap, |e| e.min(gap)).max(ve);
        (l.text[ve..cell_end].trim().is_empty() && number_like(&l.text[vs..ve])).then_some((vs, ve))
    };
    let upper = |l: &Line| l.page == first.page && l.bbox.y0 <= first.height * 0.5;
    let mut found: Vec<(usize, usize, usize)> = Vec::new();
    for (line, hits) in doc.lines.iter().zip(line_labels) {
        if !upper(line) {
            continue;
        }
        let text = line.text.as_str();
        // A scan's OCR sets no column gap between `Key: value` pairs (`Tate: F2023/8964 Matapo:
        // 15 de agosto de 2023`): each key begins a cell of its own.
        let cells: Vec<(usize, usize)> = column_cells(text)
            .into_iter()
            .flat_map(|c| key_cells(text, c, &key_ok))
            .collect();
        let free = |&(cs, ce): &(usize, usize)| !hits.iter().any(|h| h.start < ce && cs < h.end);
        // A cell whose only label words are a column's article-number word (`Reference`,
        // `Inv. ref.`) or the bare word for a reference (`Referentie`, filed as a customer's).
        let sku_only = |&(cs, ce): &(usize, usize)| {
            let mut inside = hits
                .iter()
                .filter(|h| h.start < ce && cs < h.end)
                .peekable();
            inside.peek().is_some()
                && inside.all(|h| {
                    h.key == LabelKey::ColSku
                        || h.key == LabelKey::CustomerNumber
                            && labels::names_bare_reference(&text[h.start..h.end])
                })
        };
        let outside_tables = !in_table.get(line.index).copied().unwrap_or(false);
        // A column's article-number word as a `Key:` outside the tables.
        let sku_key =
            |c: &(usize, usize)| sku_only(c) && text[c.0..c.1].contains(':') && outside_tables;
        // A grid row of keys without colons: single words without digits, the row below
        // holding a date (a table's header row has its column labels: never free). Beside a
        // key the vocabulary knows as a header's, no column's (`Inv. ref.  Date of issue
        // Due`: a header grid of a number and its dates), a key may be of up to three words,
        // and an article-number word is the document's reference's key.
        let header_key = hits.iter().any(|h| !h.key.is_column());
        let key_cell =
            |c: &(usize, usize)| free(c) || (header_key && outside_tables && sku_only(c));
        let bare_keys = hits
            .iter()
            .all(|h| !h.key.is_column() || (header_key && h.key == LabelKey::ColSku))
            && cells.len() >= 2
            && !text.contains(':')
            && cells.iter().filter(|c| key_cell(c)).count() >= 1
            && cells.iter().filter(|c| key_cell(c)).all(|&(cs, ce)| {
                let w = &text[cs..ce];
                (header_key || !w.contains(' ')) && key_ok(w)
            })
            && doc.lines.get(line.index + 1).is_some_and(|next| {
                next.page == line.page
                    && !dates::find_dates(&next.text, style.month_first).is_empty()
            });
        // The bare word for a reference without its colon, the value right after it, on the
        // document's first line or after its title (`Note Référence FA202108-3917, Émise le`,
        // `Facture de vente Référence 438/2022`): the document's reference, where no other
        // column's word makes the line a table's header.
        let title_line = line.index == 0 || hits.iter().any(|h| h.key == LabelKey::Title);
        for h in hits.iter().filter(|h| {
            title_line
                && outside_tables
                && matches!(h.key, LabelKey::ColSku | LabelKey::CustomerNumber)
                && labels::names_bare_reference(&text[h.start..h.end])
                && !hits.iter().any(|o| o.key.is_column() && o.start != h.start)
        }) {
            let rest = &text[h.end..];
            let vs = h.end + (rest.len() - rest.trim_start().len());
            if vs > h.end
                && let Some((vs, ve)) = number_at(text, vs)
                && let ve = vs + text[vs..ve].trim_end_matches([',', ';']).len()
                && number_like(&text[vs..ve])
                && !taken(items, line.index, vs, ve)
            {
                found.push((line.index, vs, ve));
            }
        }
        for (k, &(cs, ce)) in cells.iter().enumerate() {
            let cell_key =
                free(&(cs, ce)) || sku_key(&(cs, ce)) || bare_keys && key_cell(&(cs, ce));
            if !cell_key {
                continue;
            }
            let cell = &text[cs..ce];
            let (key, after) = match cell.find(':') {
                Some(colon) => (cell[..colon].trim(), cs + colon + 1),
                None if bare_keys => (cell, ce),
                // An abbreviation's dot, then its colon OCR read as a dot (`Rif..`).
                None if cell.trim_end().ends_with("..") => {
                    (cell.trim_end().trim_end_matches('.'), ce)
                }
                None => continue,
            };
            if !key_ok(key) {
                continue;
            }
            let rest = &text[after..ce];
            let value = if !rest.trim().is_empty() {
                // `Key: value` inside the cell.
                value_at(
                    line,
                    after + (rest.len() - rest.trim_start().len()),
                    Some(ce),
                )
                .filter(|&(_, ve)| ve <= ce)
                .map(|(vs, ve)| (line.index, vs, ve))
            } else if let Some(&(ns, ne)) = cells.get(k + 1).filter(|_| !bare_keys)
                && free(&(ns, ne))
                && !text[ns..ne].contains(':')
            {
                // The key's value in the next cell of its line.
                value_at(line, ns, Some(ne)).map(|(vs, ve)| (line.index, vs, ve))
            } else {
                // The value under the key, on the line below.
                token_below(doc, line, cs, ce).and_then(|(l2, s, _)| {
                    let (vs, ve) = value_at(l2, s, None)?;
                    Some((l2.index, vs, ve))
                })
            };
            if let Some((li, vs, ve)) = value
                && !in_table.get(li).copied().unwrap_or(false)
                && !taken(items, li, vs, ve)
                && !found.iter().any(|&(l, s, e)| l == li && s < ve && vs < e)
            {
                found.push((li, vs, ve));
            }
        }
    }
    for (li, s, e) in found {
        let l = &doc.lines[li];
        let mut c = cand(CandidateKind::Reference, l.text[s..e].to_string(), l, s, e);
        c.label = None;
        items.push(c);
    }
}

/// A cell cut before each word after its first that is a key (`Matapo:`, its part before the
/// colon passing `key_ok`).
fn key_cells(
    text: &str,
    (cs, ce): (usize, usize),
    key_ok: &impl Fn(&str) -> bool,
) -> Vec<(usize, usize)> {
    let mut out = vec![(cs, ce)];
    let cell = &text[cs..ce];
    let mut pos = 0;
    for word in cell.split(' ') {
        let at = cs + pos;
        pos += word.len() + 1;
        if at == cs || word.is_empty() {
            continue;
        }
        if let Some(colon) = word.find(':')
            && key_ok(&word[..colon])
            && let Some(last) = out.last_mut()
        {
            last.1 = text[..at].trim_end().len();
            out.push((at, ce));
        }
    }
    out
}

/// Dates written in words that a line break splits (`Fecha de emisión: 5 de febrero` / `de
/// 2026`, `Koostamise kuupäev: 3.` / `detsember 2023`: a title line wrapped at the page's
/// width): read across the break of two lines set one under the other, where the date holds a
/// month's name and neither line holds it whole. The candidate spans its part on the first
/// line, where its label is.
fn wrapped_dates(doc: &CleanDocument, style: &DocStyle, items: &mut Vec<Candidate>) {
    let floor = |t: &str, mut i: usize| {
        while !t.is_char_boundary(i) {
            i -= 1;
        }
        i
    };
    let mut wrapped = Vec::new();
    for pair in doc.lines.windows(2) {
        let (a, b) = (&pair[0], &pair[1]);
        let h = a.bbox.height().max(1.0);
        // A month's name at the break (the last two words of the first line, the first two of
        // the second): every other pair of lines is passed over without a date search.
        let month = |w: &str| {
            let w = w.trim_matches(|c: char| !c.is_alphabetic());
            w.chars().count() >= 3 && dates::month_number(w).is_some()
        };
        let at_break = a.text.split_whitespace().rev().take(2).any(month)
            || b.text.split_whitespace().take(2).any(month);
        if a.page != b.page
            || b.bbox.y0 < a.bbox.y1 - 0.3 * h
            || b.bbox.y0 - a.bbox.y1 > h
            || !at_break
        {
            continue;
        }
        let cut = floor(&a.text, a.text.len().saturating_sub(40));
        let tail = &a.text[cut..];
        let head = &b.text[..floor(&b.text, b.text.len().min(30))];
        let joined = format!("{tail} {head}");
        for d in dates::find_dates(&joined, style.month_first) {
            let written = joined[d.start..d.end]
                .split(|c: char| !c.is_alphabetic())
                .any(month);
            if d.start >= tail.len() || d.end <= tail.len() + 1 || !written {
                continue;
            }
            let start = cut + d.start;
            let whole = |l: &Line| {
                items.iter().any(|c| {
                    c.kind == CandidateKind::Date && c.span.line == l.index && c.value == d.iso()
                })
            };
            if whole(a) || whole(b) {
                continue;
            }
            let mut c = cand(CandidateKind::Date, d.iso(), a, start, a.text.len());
            c.ambiguous = d.ambiguous;
            wrapped.push(c);
        }
    }
    if !wrapped.is_empty() {
        // In reading order, after the first line's own candidates (a stable sort by line).
        items.append(&mut wrapped);
        items.sort_by_key(|c| c.span.line);
    }
}

/// Byte ranges of a line's cells: the text between column gaps (two spaces or more).
fn column_cells(text: &str) -> Vec<(usize, usize)> {
    let mut cells = Vec::new();
    let mut pos = 0;
    for part in text.split("  ") {
        let lead = part.len() - part.trim_start().len();
        let t = part.trim();
        if !t.is_empty() {
            cells.push((pos + lead, pos + lead + t.len()));
        }
        pos += part.len() + 2;
    }
    cells
}

fn extract_line(
    doc: &CleanDocument,
    line: &Line,
    hits: &[LabelHit],
    style: &DocStyle,
    items: &mut Vec<Candidate>,
) {
    let text = line.text.as_str();
    let mut masked: Vec<(usize, usize)> = Vec::new();

    // IBANs first: they contain digit runs that would read as amounts.
    for m in ids::find_ibans(text) {
        masked.push((m.start, m.end));
        let mut c = cand(CandidateKind::Iban, m.value, line, m.start, m.end);
        c.scheme = Some("IBAN".into());
        c.checksum_valid = m.checksum_valid;
        items.push(c);
    }
    for (s, e) in ids::find_emails(text) {
        masked.push((s, e));
        items.push(cand(
            CandidateKind::Email,
            text[s..e].to_string(),
            line,
            s,
            e,
        ));
    }
    // Labelled values: tax ids, phones, BICs, document numbers.
    for h in hits {
        if h.key.is_tax_id() {
            if let Some((s, e, v)) = ids::value_after(text, h.end)
                && !overlaps(&masked, s, e)
                && !beyond_other_label(hits, h, s)
                && !dates::find_dates(&v, style.month_first)
                    .iter()
                    .any(|d| d.start == 0 && d.end == v.len())
            {
                let scheme = ids::scheme_for_label(h.key);
                let value = match scheme {
                    Some("DE_STNR") | None => v.trim().to_string(),
                    Some(_) => v.chars().filter(|c| c.is_ascii_alphanumeric()).collect(),
                };
                // `ИНН/КПП 7707083893/773601001`: split the pair.
                let pair = value
                    .split_once('/')
                    .filter(|_| matches!(h.key, LabelKey::Inn | LabelKey::Kpp));
                if let Some((inn, kpp)) = pair.or_else(|| {
                    (h.key == LabelKey::Inn && hits.iter().any(|o| o.key == LabelKey::Kpp))
                        .then(|| v.split_once('/'))
                        .flatten()
                }) {
                    if h.key == LabelKey::Inn {
                        for (val, sch) in [(inn, "RU_INN"), (kpp, "RU_KPP")] {
                            let val: String = val.chars().filter(char::is_ascii_digit).collect();
                            let mut c = cand(CandidateKind::TaxId, val.clone(), line, s, e);
                            c.scheme = Some(sch.into());
                            c.checksum_valid = crate::checks::tax_id_check(sch, &val);
                            c.label = Some(h.key);
                            items.push(c);
                        }
                        masked.push((s, e));
                    }
                    continue;
                }
                let vat = ids::find_vat_ids(&v);
                // A VAT id whose country code OCR read as a look-alike digit (`F149236620`),
                // the whole value: read as the repair whose check digits hold.
                let printed: String = v
                    .chars()
                    .filter(char::is_ascii_alphanumeric)
                    .map(|c| c.to_ascii_uppercase())
                    .collect();
                let repaired = vat.iter().find(|m| {
                    m.checksum_valid == Some(true)
                        && m.value.len() == printed.len()
                        && m.value != printed
                });
                let (value, scheme) = match repaired {
                    Some(m) => (m.value.clone(), Some("EU_VAT")),
                    None => (value, scheme),
                };
                let scheme = scheme.map(str::to_string).or_else(|| {
                    // Shape decides where the label is generic.
                    vat.first().map(|_| "EU_VAT".to_string())
                });
                let mut c = cand(CandidateKind::TaxId, value.clone(), line, s, e);
                c.checksum_valid = scheme
                    .as_deref()
                    .and_then(|sc| crate::checks::tax_id_check(sc, &value));
                c.scheme = scheme.or_else(|| Some(format!("{:?}", h.key).to_uppercase()));
                c.label = Some(h.key);
                masked.push((s, e));
                items.push(c);
            }
        } else if h.key == LabelKey::Phone {
            if let Some((s, e)) = ids::phone_after(text, h.end)
                && !overlaps(&masked, s, e)
            {
                masked.push((s, e));
                let mut c = cand(
                    CandidateKind::Phone,
                    text[s..e].trim().to_string(),
                    line,
                    s,
                    e,
                );
                c.label = Some(h.key);
                items.push(c);
            }
        } else if h.key == LabelKey::Bic {
            if let Some((s, e)) = ids::bic_after(text, h.end) {
                masked.push((s, e));
                let mut c = cand(CandidateKind::Bic, text[s..e].to_string(), line, s, e);
                c.label = Some(h.key);
                items.push(c);
            }
        } else if (matches!(
            h.key,
            LabelKey::Number | LabelKey::NumberGeneric | LabelKey::Title
        ) && !(h.key == LabelKey::NumberGeneric
            && (parties::has_street_word(label_cell(text, h)) || !starts_token(text, h)))
            && !continues_label(text, hits, h))
            || (h.key == LabelKey::Account
                && labels::names_invoice_or_account(&text[h.start..h.end])
                && number_after(text, h.end)
                    .is_none_or(|_| !account_shaped(cell_after(text, h.end))))
        {
            // (`Bd. Unirii nr. 17`, `NO 53, JALAN BESAR`: a house number, not the document's.)
            let found = number_after(text, h.end).map(|(s, e)| (line, s, e));
            let found = found.or_else(|| {
                // Label alone at the end of its line, or followed only by the next label (a
                // grid of `label over value` cells): the value printed under it.
                let next_label = hits
                    .iter()
                    .filter(|o| o.start >= h.end)
                    .map(|o| o.start)
                    .min()
                    .unwrap_or(text.len());
                let rest = text[h.end..next_label].trim_matches([' ', ':', '.', '#', '°', 'º']);
                // What stands between is no value: nothing, or one word without digits (the
                // head of the next label, `Rg.-` of `Rg.-Datum`, which the vocabulary reads
                // as `Datum`).
                // Or the label's cell ends at a column gap with words of its own only (`N.º
                // documento  Emitida em  Data limite`: `documento` follows the number word).
                let cell = text[h.end..]
                    .split("  ")
                    .next()
                    .unwrap_or("")
                    .trim_matches([' ', ':', '.', '#', '°', 'º']);
                let own_cell = text[h.end..].contains("  ")
                    && cell.split_whitespace().count() <= 2
                    && !cell.chars().any(|c| c.is_ascii_digit());
                let no_value = rest.is_empty()
                    || own_cell
                    || (rest.split_whitespace().count() == 1
                        && !rest.chars().any(|c| c.is_ascii_digit()));
                // A table's header row (`# | Description | Qty ...`) is no grid of labels: the
                // value under its `#` is the first row's position.
                let table_header = hits.iter().filter(|o| o.key.is_column()).count() >= 2;
                if no_value && h.key != LabelKey::Title && !table_header {
                    // The label's cell begins with the words before it (`Документ No:` over
                    // `2768`): a grid's value sits under its cell's start.
                    let cell_start = text[..h.start].rfind("  ").map_or(0, |g| g + 2);
                    let lead = &text[cell_start..h.start];
                    let from = if lead.split_whitespace().count() <= 2
                        && lead
                            .chars()
                            .all(|c| c.is_alphabetic() || c == ' ' || c == '.')
                    {
                        cell_start + (lead.len() - lead.trim_start().len())
                    } else {
                        h.start
                    };
                    let (l2, s, e) = token_below(doc, line, from, h.end)?;
                    // A letter prefix printed apart (`FS 358/2022`) is part of the value.
                    let e = number_at(&l2.text, s).map_or(e, |(_, e2)| e2);
                    let t = l2.text[s..e].trim_end_matches([',', ';']);
                    (t.chars().any(|c| c.is_ascii_digit())
                        && dates::find_dates(t, style.month_first).is_empty())
                    .then_some((l2, s, s + t.len()))
                } else {
                    None
                }
            });
            if let Some((l, s, e)) = found {
                let v = &l.text[s..e];
                // A strong number label right before it makes even a date-shaped value the
                // number (`Nr faktury: 4/03/2022`, numbered per month and year).
                let labelled_here =
                    h.key == LabelKey::Number && std::ptr::eq(l, line) && v.contains('/');
                let is_date = !labelled_here && !dates::find_dates(v, style.month_first).is_empty();
                let is_amount_only = v.contains(['.', ','])
                    && v.chars()
                        .all(|c| c.is_ascii_digit() || c == '.' || c == ',');
                // `Számlaszám` over a bank account's number names the account after all.
                let account = h.key == LabelKey::Account && account_shaped(v);
                if !is_date && !is_amount_only && !account {
                    if std::ptr::eq(l, line) {
                        masked.push((s, e));
                    }
                    let mut c = cand(CandidateKind::DocNumber, v.to_string(), l, s, e);
                    // An account label whose value has no account's shape names the invoice.
                    c.label = Some(if h.key == LabelKey::Account {
                        LabelKey::Number
                    } else {
                        h.key
                    });
                    items.push(c);
                }
            }
        } else if matches!(h.key, LabelKey::Contract | LabelKey::Order)
            && let Some((s, e)) = number_after(text, h.end)
            && dates::find_dates(&text[s..e], style.month_first).is_empty()
        {
            // Not masked: amounts and dates of the line are read as before.
            let mut c = cand(CandidateKind::Reference, text[s..e].to_string(), line, s, e);
            c.label = Some(h.key);
            items.push(c);
        } else if h.key == LabelKey::Corrects {
            // The corrected invoice's number: after the label, or under it in a grid row.
            let after = number_after(text, h.end).map(|(s, e)| (line, s, e));
            let found = after.or_else(|| {
                let rest = text[h.end..].split("  ").next().unwrap_or("");
                if !rest.trim_matches([' ', ':', '.', '#']).is_empty() {
                    return None;
                }
                let (l2, s, _) = token_below(doc, line, h.start, h.end)?;
                number_at(&l2.text, s).map(|(s, e)| (l2, s, e))
            });
            if let Some((l, s, e)) = found
                && dates::find_dates(&l.text[s..e], style.month_first).is_empty()
            {
                if std::ptr::eq(l, line) {
                    masked.push((s, e));
                }
                let mut c = cand(CandidateKind::Reference, l.text[s..e].to_string(), l, s, e);
                c.label = Some(h.key);
                items.push(c);
            }
        }
    }
    // A noun compounded with a number word that no label covers (`Documentnr. 2019/055`,
    // `ČekaNr.6/4789`): a generic number label.
    let mut pos = 0;
    for word in text.split(' ') {
        let at = pos;
        pos += word.len() + 1;
        let Some(n) = number_compound(word) else {
            continue;
        };
        if hits.iter().any(|h| h.start < at + word.len() && at < h.end)
            || parties::has_street_word(text)
        {
            continue;
        }
        if let Some((s, e)) = number_after(text, at + n)
            && !overlaps(&masked, s, e)
            && dates::find_dates(&text[s..e], style.month_first).is_empty()
            && ids::find_vat_ids(&text[s..e]).is_empty()
            && !account_shaped(&text[s..e])
        {
            masked.push((s, e));
            let mut c = cand(CandidateKind::DocNumber, text[s..e].to_string(), line, s, e);
            c.label = Some(LabelKey::NumberGeneric);
            items.push(c);
        }
    }
    for m in ids::find_vat_ids(text) {
        if overlaps(&masked, m.start, m.end) {
            continue;
        }
        masked.push((m.start, m.end));
        let mut c = cand(CandidateKind::TaxId, m.value, line, m.start, m.end);
        c.scheme = m.scheme.map(Into::into);
        c.checksum_valid = m.checksum_valid;
        items.push(c);
    }
    for m in ids::find_shaped_ids(text) {
        if overlaps(&masked, m.start, m.end) {
            continue;
        }
        masked.push((m.start, m.end));
        let mut c = cand(CandidateKind::TaxId, m.value, line, m.start, m.end);
        c.scheme = m.scheme.map(Into::into);
        c.checksum_valid = m.checksum_valid;
        items.push(c);
    }
    for (s, e) in ids::find_intl_phones(text) {
        if overlaps(&masked, s, e) {
            continue;
        }
        masked.push((s, e));
        items.push(cand(
            CandidateKind::Phone,
            text[s..e].trim().to_string(),
            line,
            s,
            e,
        ));
    }
    // A date right after its label with one separator lost to the OCR (`DATE: 2504/2017`), or
    // printed without separators (`Date/Time 20180428/191204`).
    for h in hits.iter().filter(|h| h.key == LabelKey::Date) {
        let rest = text.get(h.end..).unwrap_or("");
        // A label naming the time too (`Date/Time`, `Datum/Uhrzeit`): its second word skipped.
        let rest = match rest.strip_prefix('/') {
            Some(r) if r.starts_with(char::is_alphabetic) => {
                r.trim_start_matches(char::is_alphabetic)
            }
            _ => rest,
        };
        let rest = rest.trim_start_matches([' ', ':', '.']);
        let s = text.len() - rest.len();
        let token = text[s..].split_whitespace().next().unwrap_or("");
        let e = s + token.len();
        if overlaps(&masked, s, e) {
            continue;
        }
        let found = dates::one_separator_date(token, style.month_first)
            .or_else(|| dates::compact_date(token, style.month_first));
        if let Some(d) = found {
            let e = s + d.end;
            masked.push((s, e));
            let mut c = cand(CandidateKind::Date, d.iso(), line, s, e);
            c.ambiguous = d.ambiguous;
            items.push(c);
        }
    }
    for d in dates::find_dates(text, style.month_first) {
        if overlaps(&masked, d.start, d.end) {
            continue;
        }
        masked.push((d.start, d.end));
        let mut c = cand(CandidateKind::Date, d.iso(), line, d.start, d.end);
        c.ambiguous = d.ambiguous;
        items.push(c);
    }
    masked.extend(ids::find_times(text));
    for a in amounts::find_amounts(text, style.decimal, &masked) {
        items.push(amount_cand(&a, line));
    }
    for (s, e, iso) in amounts::find_currencies(text) {
        // Short letter codes only as whole words (`RM`, `EUR`), symbols anywhere.
        items.push(cand(CandidateKind::Currency, iso.to_string(), line, s, e));
    }
}

/// Whether a value at `start` after label `h` lies beyond another field's label printed
/// between them (`PVN reg. Nr.  Datums:  19.04.2019`: the date is the date label's, not the VAT
/// label's). Labels that name the same value (`VAT Reg. No.`, `HRB Nr.`: a number word after an
/// id label, which the vocabulary also knows as a column header) do not count.
fn beyond_other_label(hits: &[LabelHit], h: &LabelHit, start: usize) -> bool {
    hits.iter().any(|o| {
        o.start >= h.end
            && o.end <= start
            && !o.key.is_tax_id()
            && !o.key.is_column()
            && !matches!(
                o.key,
                LabelKey::Number | LabelKey::NumberGeneric | LabelKey::RegNo
            )
    })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::clean;
    use crate::types::{BBox, Source, TextPage, Unit, Word};

    /// A 600 x 800 pt text-layer page of these words, cleaned.
    /// A word starting at `x`, five units per character, ten high.
    pub(crate) fn word(text: &str, x: f32, y: f32) -> Word {
        let x1 = x + text.chars().count() as f32 * 5.0;
        Word {
            text: text.into(),
            bbox: BBox::new(x, y, x1, y + 10.0),
            confidence: 1.0,
        }
    }

    #[test]
    fn a_credit_notes_vat_row_keeps_its_sign_where_ocr_lost_the_minus() {
        let c = extract(&doc_from(&[
            ("TVA%  Subtotal  Total TVA  Cu TVA", 40.0, 100.0),
            ("19%  -318.475,17  60.510,28  -378.985,45", 40.0, 114.0),
            ("9%  -12.656,40  -1.139,08  -13.795,48", 40.0, 128.0),
        ]));
        let rows: Vec<(String, String)> = c
            .tax_rows
            .iter()
            .map(|r| (r.base.1.to_string(), r.amount.1.to_string()))
            .collect();
        assert_eq!(
            rows,
            [
                ("-318475.17".to_string(), "-60510.28".to_string()),
                ("-12656.40".to_string(), "-1139.08".to_string())
            ]
        );
        // Without the gross that the signed amount makes, no row.
        let c = extract(&doc_from(&[("19%  -318.475,17  60.510,28", 40.0, 114.0)]));
        assert!(c.tax_rows.is_empty());
    }

    /// The tax rows' rate, base and amount, as text.
    fn tax_row_texts(c: &Candidates) -> Vec<(String, String, String)> {
        c.tax_rows
            .iter()
            .map(|r| {
                (
                    r.rate.1.to_string(),
                    r.base.1.to_string(),
                    r.amount.1.to_string(),
                )
            })
            .collect()
    }

    #[test]
    fn a_summary_row_whose_rate_ocr_lost_is_read_by_its_arithmetic() {
        let rows = |last: &'static str| -> Vec<(String, String, String, bool)> {
            let c = extract(&doc_from(&[
                ("PVM%  Be PVM  PVM  Su PVM", 40.0, 100.0),
                ("21%  952,98  200,13  1153,11", 40.0, 114.0),
                ("9%  438,96  39,51  478,47", 40.0, 128.0),
                (last, 40.0, 142.0),
            ]));
            tax_row_texts(&c)
                .into_iter()
                .zip(&c.tax_rows)
                .map(|((rate, base, amount), r)| {
                    (rate, base, amount, r.rate.0 == taxes::RATE_NOT_PRINTED)
                })
                .collect()
        };
        let got = rows("1275,20  63,76  1338,96");
        assert_eq!(got.len(), 3);
        assert_eq!(
            got[2],
            (
                "5".to_string(),
                "1275.20".to_string(),
                "63.76".to_string(),
                true
            )
        );
        // The summary's own sum row, a gross that is no sum, a share that is no rate: no row.
        assert_eq!(rows("1391,94  239,64  1631,58").len(), 2);
        assert_eq!(rows("1275,20  63,76  1338,97").len(), 2);
        assert_eq!(rows("1275,20  63,77  1338,97").len(), 2);
    }

    #[test]
    fn a_vat_summary_row_may_print_its_rate_without_the_sign() {
        let rows = |lines: &[(&str, f32, f32)]| tax_row_texts(&extract(&doc_from(lines)));
        let summary = [
            (
                "Art  Basisbetrag  Steuersatz [%]  Steuerbetrag",
                40.0,
                100.0,
            ),
            ("Umsatzsteuer (S)  113,03  7  7,91", 40.0, 114.0),
            ("Umsatzsteuer (S)  64,46  19  12,25", 40.0, 128.0),
        ];
        assert_eq!(
            rows(&summary),
            [
                ("7".into(), "113.03".into(), "7.91".into()),
                ("19".into(), "64.46".into(), "12.25".into())
            ]
        );
        // Without a VAT label a bare number is no rate: quantity 10 of an item row makes its
        // price 10 % of its amount.
        assert!(rows(&[("Schrauben  10  5,00  50,00", 40.0, 114.0)]).is_empty());
        // Nor its position where the row prints its rate with the sign (2 % of 275,00 is 5,50).
        let row = [("2  Joghurt  5,50  50 Stk  7 % VAT (S)  275,00", 40.0, 114.0)];
        assert!(rows(&row).is_empty(), "{:?}", rows(&row));
        // In whole units an item row's position and quantity are no base and amount within the
        // one unit of a till's rounding (18 % of 3 is 0.54, not 2); the summary's row is one.
        let whole = [
            ("#  Megnevezés  Menny.  %  Bruttó", 40.0, 100.0),
            ("2  Irodai szék  3  18%  60594", 40.0, 114.0),
            ("ÁFA %  Nettó  Adó  Bruttó", 40.0, 140.0),
            ("18%  248901  44802  293703", 40.0, 154.0),
            ("Számla végösszege: 293703 Ft", 40.0, 170.0),
        ];
        assert_eq!(
            rows(&whole),
            [("18".into(), "248901".into(), "44802".into())]
        );
    }

    #[test]
    fn lines_that_list_other_documents_introduce_no_number_of_this_one() {
        let lines = [
            ("Leveranssedel", 230.0, 40.0),
            ("Offene Posten:", 40.0, 400.0),
            (
                "Rechnung 2023-117 vom 03.02.2023  1.234,50 EUR",
                40.0,
                414.0,
            ),
            ("Rechnung 2023-204 vom 05.03.2023  88,00 EUR", 40.0, 428.0),
            ("Saldo:  1.322,50 EUR", 40.0, 442.0),
        ];
        let c = extract(&doc_from(&lines));
        assert_eq!(c.listed_lines, [false, false, true, true, false]);
        let labels: Vec<Option<LabelKey>> =
            c.of(CandidateKind::DocNumber).map(|n| n.label).collect();
        assert!(
            !labels.is_empty() && labels.iter().all(Option::is_none),
            "{labels:?}"
        );
        // The document's own number line (no amount), or one such line alone: no list.
        let own = [
            ("Rechnung 2023-117 vom 03.02.2023", 40.0, 60.0),
            ("Rechnung 2023-204 vom 05.03.2023  88,00 EUR", 40.0, 400.0),
        ];
        let c = extract(&doc_from(&own));
        assert_eq!(c.listed_lines, [false, false]);
        assert!(
            c.of(CandidateKind::DocNumber)
                .any(|n| n.value == "2023-117" && n.label == Some(LabelKey::Title))
        );
    }

    #[test]
    fn a_list_of_dated_amounts_is_marked_whatever_its_labels() {
        let lines = [
            ("Datum: 01.02.2024  Summe: 50,00", 40.0, 60.0),
            ("Fällig: 15.02.2024  Offen: 50,00", 40.0, 74.0),
            ("Zahlungsplan:", 40.0, 400.0),
            ("1.  15.02.2024  154,31 EUR", 40.0, 414.0),
            ("2.  15.05.2024  154,31 EUR", 40.0, 428.0),
            ("3.  15.08.2024  154,33 EUR", 40.0, 442.0),
            ("1. Rate fällig am 15.02.2024: 154,31 EUR", 40.0, 500.0),
            ("2. Rate fällig am 15.05.2024: 154,31 EUR", 40.0, 514.0),
        ];
        let c = extract(&doc_from(&lines));
        // The header's two lines carry different labels; the instalments the same (none, or
        // `Rate fällig am` on each).
        assert_eq!(
            c.dated_lines,
            [false, false, false, true, true, true, true, true]
        );
        // Run on, one line, its last amount wrapped to the next; a header's pairs with labels
        // between them are no list.
        let run = [
            (
                "Grafic de plată: 18/06/2024 2.042,64 / 18/09/2024 2.042,64 / 18/12/2024",
                40.0,
                400.0,
            ),
            ("2.042,64 RON", 40.0, 414.0),
            (
                "Datum: 01.02.2024  Summe: 50,00  Fällig: 15.02.2024  Offen: 50,00",
                40.0,
                500.0,
            ),
            ("Zeitraum 01.01.2024 - 31.01.2024  50,00", 40.0, 514.0),
        ];
        assert_eq!(
            extract(&doc_from(&run)).dated_lines,
            [true, true, false, false]
        );
        // Dates not one under the other make no list.
        let apart = [
            ("1.  15.02.2024  154,31 EUR", 40.0, 414.0),
            ("2.  x  15.05.2024  154,31 EUR", 300.0, 428.0),
        ];
        assert_eq!(extract(&doc_from(&apart)).dated_lines, [false, false]);
    }

    /// The values of a document's candidates of one kind, in order.
    fn values(c: &Candidates, kind: CandidateKind) -> Vec<&str> {
        c.of(kind).map(|c| c.value.as_str()).collect()
    }

    pub(crate) fn page_doc(words: Vec<Word>) -> CleanDocument {
        pages_doc(vec![words])
    }

    /// A text-layer document of several pages, each of its words.
    pub(crate) fn pages_doc(pages: Vec<Vec<Word>>) -> CleanDocument {
        let pages: Vec<TextPage> = pages
            .into_iter()
            .enumerate()
            .map(|(i, words)| TextPage {
                page: i as u32 + 1,
                width: 600.0,
                height: 800.0,
                unit: Unit::Pt,
                source: Source::TextLayer,
                engine: None,
                rotation: 0,
                words,
            })
            .collect();
        clean::clean(&pages)
    }

    pub(crate) fn doc_from(lines: &[(&str, f32, f32)]) -> CleanDocument {
        // (text, x, y): words of a line spaced by their length.
        let mut words = Vec::new();
        for (text, x, y) in lines {
            let mut x = *x;
            for w in text.split(' ') {
                if w.is_empty() {
                    x += 6.0;
                    continue;
                }
                let wdt = w.chars().count() as f32 * 5.0;
                words.push(Word {
                    text: w.into(),
                    bbox: BBox::new(x, *y, x + wdt, y + 10.0),
                    confidence: 1.0,
                });
                x += wdt + 4.0;
            }
        }
        page_doc(words)
    }

    #[test]
    fn item_blocks_above_a_vat_summary_table_are_the_items() {
        // The summary's header names columns and its row an amount under `Goods value`, but the
        // row names nothing: the blocks above are the items.
        let doc = doc_from(&[
            ("Position 1", 40.0, 100.0),
            ("Description:  Consulting services (day rate)", 60.0, 112.0),
            ("Qty:  2", 60.0, 124.0),
            ("Unit price:  10.00 GBP", 60.0, 136.0),
            ("Amount:  20.00 GBP", 60.0, 148.0),
            ("Position 2", 40.0, 160.0),
            ("Description:  Office chair", 60.0, 172.0),
            ("Qty:  1", 60.0, 184.0),
            ("Unit price:  15.00 GBP", 60.0, 196.0),
            ("Amount:  15.00 GBP", 60.0, 208.0),
            (
                "VAT %      Goods value      Total VAT      Gross",
                250.0,
                230.0,
            ),
            ("20%      35.00      7.00      42.00", 260.0, 242.0),
        ]);
        let c = extract(&doc);
        let t = c.item_table.as_ref().expect("the blocks' rows");
        assert_eq!(t.rows.len(), 2);
    }

    #[test]
    fn item_blocks_outnumbering_the_arithmetic_rows_are_the_items() {
        // A payment schedule's line whose amount OCR split (`28832,6 1 EUR`) balances as one
        // row by arithmetic: the three blocks that sum to the net are the items.
        let schedule = [
            (
                "Maksājumu grafiks: 2020-10-26 28832,6 1 EUR / 2020-11-26 28832, 61 EUR / 2020-12-26 28832.61 EUR /",
                40.0,
                320.0,
            ),
            ("2021-01-26 28832,61 EUR", 40.0, 332.0),
        ];
        let blocks = [
            ("Pozīcija 1", 40.0, 100.0),
            ("Nosaukums:  Konsultācijas", 60.0, 112.0),
            ("Daudzums:  2", 60.0, 124.0),
            ("Cena:  1000,00 EUR", 60.0, 136.0),
            ("Summa:  2000,00 EUR", 60.0, 148.0),
            ("Pozīcija 2", 40.0, 160.0),
            ("Nosaukums:  Krēsls", 60.0, 172.0),
            ("Daudzums:  1", 60.0, 184.0),
            ("Cena:  1534,44 EUR", 60.0, 196.0),
            ("Summa:  1534,44 EUR", 60.0, 208.0),
            ("Pozīcija 3", 40.0, 220.0),
            ("Nosaukums:  Papīrs", 60.0, 232.0),
            ("Daudzums:  3", 60.0, 244.0),
            ("Cena:  2500,00 EUR", 60.0, 256.0),
            ("Summa:  7500,00 EUR", 60.0, 268.0),
            ("Starpsumma:  11034,44 EUR", 260.0, 290.0),
        ];
        let all: Vec<_> = blocks.iter().chain(&schedule).copied().collect();
        let c = extract(&doc_from(&all));
        let t = c.item_table.as_ref().expect("the blocks' rows");
        assert_eq!(t.rows.len(), 3);
        assert_eq!(t.rows[0].lines[0], 1);
    }

    #[test]
    fn a_balanced_row_takes_what_it_read_not_from_the_header_table() {
        let cell = |key: LabelKey, line: usize, text: &str| tables::Cell {
            key,
            text: text.into(),
            span: Span {
                page: 1,
                line,
                start: 0,
                end: text.len(),
                bbox: crate::types::BBox::default(),
                text: text.into(),
                confidence: 1.0,
            },
            amount: text.replace(',', ".").parse().ok(),
        };
        let row = |source, line: usize, cells: &[(LabelKey, &str)]| tables::Row {
            lines: vec![line],
            cells: cells.iter().map(|(k, t)| cell(*k, line, t)).collect(),
            source,
        };
        let layout = |rows: Vec<tables::Row>| TableLayout {
            header_line: 0,
            columns: Vec::new(),
            rows,
            end_line: 9,
            sums: false,
        };
        use LabelKey::{ColAmount as A, ColAmountGross as G, ColVatRate as R};
        let balanced = tables::RowSource::Balanced;
        // The arithmetic's rows (no rate to confirm a gross), the header's with `2096` for
        // 20 %: the gross of the row with the same net on the same line is taken; one more than
        // a VAT can add, or beside another net, is not.
        let mut t = layout(vec![
            row(balanced, 2, &[(A, "4527464,28")]),
            row(balanced, 3, &[(A, "832038,40")]),
            row(balanced, 4, &[(A, "100,00")]),
        ]);
        let header = layout(vec![
            row(
                tables::RowSource::Header,
                2,
                &[(R, "2096"), (A, "4527464,28"), (G, "5432957,14")],
            ),
            row(
                tables::RowSource::Header,
                3,
                &[(R, "2096"), (A, "832038,41"), (G, "998446,08")],
            ),
            row(
                tables::RowSource::Header,
                4,
                &[(R, "2096"), (A, "100,00"), (G, "180,00")],
            ),
        ]);
        gross_from_header(&mut t, &[header]);
        let gross: Vec<Option<&str>> = t
            .rows
            .iter()
            .map(|r| r.cell(G).map(|c| c.text.as_str()))
            .collect();
        assert_eq!(gross, [Some("5432957,14"), None, None]);
        // The quantity and price the arithmetic did not read (`2,5m` glued, `247 .63` split):
        // the header's, where they make the row's amount; not where they do not, nor beside
        // another price.
        use LabelKey::{ColQty as Q, ColUnitPrice as P};
        let mut t = layout(vec![
            row(balanced, 2, &[(P, "21069,08"), (A, "52672,70")]),
            row(balanced, 3, &[(A, "619,08")]),
            row(balanced, 4, &[(A, "1812,99")]),
            row(balanced, 5, &[(P, "10,00"), (A, "20,00")]),
        ]);
        let header = layout(vec![
            row(
                tables::RowSource::Header,
                2,
                &[(Q, "2,5m"), (P, "21069,08"), (A, "52672,70")],
            ),
            row(
                tables::RowSource::Header,
                3,
                &[(Q, "2.5"), (P, "247 .63"), (A, "619,08")],
            ),
            row(
                tables::RowSource::Header,
                4,
                &[(Q, "0.5"), (P, "4028.87"), (A, "1812,99")],
            ),
            row(
                tables::RowSource::Header,
                5,
                &[(Q, "2"), (P, "10,01"), (A, "20,00")],
            ),
        ]);
        priced_from_header(&mut t, &[header], Some(','));
        let read: Vec<_> = t
            .rows
            .iter()
            .map(|r| {
                (
                    r.cell(Q).and_then(|c| c.amount).map(|v| v.to_string()),
                    r.cell(P).and_then(|c| c.amount).map(|v| v.to_string()),
                )
            })
            .collect();
        let some = |q: &str, p: &str| (Some(q.to_string()), Some(p.to_string()));
        assert_eq!(
            read,
            [
                some("2.5", "21069.08"),
                some("2.5", "247.63"),
                (None, None),
                (None, Some("10.00".to_string()))
            ]
        );
    }

    #[test]
    fn a_header_table_continued_under_its_header_again_is_one_table() {
        // Page one's rows and page two's under the same header: together they sum to the
        // net; the arithmetic alone misses the rows whose price OCR garbled.
        // Cells at their columns' x: Pos 40, Description 80, Qty 250, Unit price 320,
        // Amount 420 (numbers right-aligned near the header's right edge).
        let row = |cells: [&str; 5], y: f32| -> Vec<Word> {
            let mut out = Vec::new();
            for (k, (text, x)) in cells
                .iter()
                .zip([40.0, 80.0, 250.0, 320.0, 420.0])
                .enumerate()
            {
                let mut x = x;
                if k >= 2 {
                    x += 30.0 - text.chars().count() as f32 * 5.0;
                }
                for w in text.split(' ') {
                    out.push(word(w, x, y));
                    x += w.chars().count() as f32 * 5.0 + 4.0;
                }
            }
            out
        };
        let header = ["Pos", "Description", "Qty", "Price", "Amount"];
        let mut words = Vec::new();
        for (cells, y) in [
            (header, 100.0),
            (["1", "Consulting", "2", "10,00", "20,00"], 114.0),
            (["2", "Office chair", "1", "15,00", "15,00"], 128.0),
            (["3", "Paper A4", "3", "(5,00", "15,00"], 142.0),
            (header, 400.0),
            (["4", "Cable", "2", "7,50", "15,00"], 414.0),
            (["5", "Desk lamp", "1", "(2,00", "12,00"], 428.0),
        ] {
            words.extend(row(cells, y));
        }
        words.extend([word("Carried", 300.0, 160.0), word("50,00", 425.0, 160.0)]);
        words.extend([word("Net", 300.0, 450.0), word("77,00", 425.0, 450.0)]);
        let doc = page_doc(words);
        let c = extract(&doc);
        assert_eq!(c.tables.len(), 2, "{:?}", c.tables);
        // The arithmetic's table: the three rows that balance, summing to no printed amount.
        let balanced: Vec<tables::Row> = c
            .tables
            .iter()
            .flat_map(|t| &t.rows)
            .filter(|r| !r.cells.iter().any(|c| c.text.starts_with('(')))
            .map(|r| tables::Row {
                source: tables::RowSource::Balanced,
                ..r.clone()
            })
            .collect();
        assert_eq!(balanced.len(), 3);
        let t = TableLayout {
            header_line: 1,
            columns: Vec::new(),
            rows: balanced,
            end_line: 8,
            sums: false,
        };
        let items = header_items(&t, &c.tables, &doc, Some(','))
            .expect("the header's rows")
            .expect("merged");
        let descriptions: Vec<&str> = items
            .rows
            .iter()
            .filter_map(|r| r.cell(LabelKey::ColDesc).map(|c| c.text.as_str()))
            .collect();
        assert_eq!(
            descriptions,
            [
                "Consulting",
                "Office chair",
                "Paper A4",
                "Cable",
                "Desk lamp"
            ]
        );
        // Pieces naming other columns are two tables, neither of which holds the items.
        let mut other = c.tables.clone();
        other[1].columns.pop();
        assert!(continued_table(&other).is_none());
        assert!(header_items(&t, &other, &doc, Some(',')).is_none());
    }

    #[test]
    fn tax_codes_take_the_rate_the_vat_summary_prints_beside_them() {
        let doc = doc_from(&[
            ("Moloko 3,2% 1 l  750.74 B", 10.0, 100.0),
            ("A MwSt. 19% von 17,79  2,84", 10.0, 120.0),
            ("B  7%  25,68  1,68", 10.0, 134.0),
            ("SR = 6%  9.20  0.55", 10.0, 148.0),
            ("(ZR): 0%  3.00  0.00", 10.0, 162.0),
            ("C 5%  1.00", 10.0, 176.0),
            ("C 10%  1.00", 10.0, 190.0),
            ("Total 19%  45,00", 10.0, 204.0),
        ]);
        let cands = extract(&doc);
        let d = |s: &str| s.parse::<rust_decimal::Decimal>().unwrap();
        assert_eq!(
            cands.code_rates,
            [
                ("A".to_string(), d("19")),
                ("B".to_string(), d("7")),
                ("SR".to_string(), d("6")),
                ("ZR".to_string(), d("0")),
            ]
        );
        assert_eq!(taxes::tax_code("A"), Some("A"));
        assert_eq!(taxes::tax_code("(B)"), Some("B"));
        assert_eq!(taxes::tax_code("SR:"), Some("SR"));
        assert_eq!(taxes::tax_code("EUR"), None);
        assert_eq!(taxes::tax_code("a"), None);
        assert_eq!(taxes::tax_code("Ab"), None);
    }

    #[test]
    fn a_spreadsheets_shortest_forms_are_money_only_in_office_documents() {
        let lines = [
            ("Nettobetrag  854", 300.0, 100.0),
            ("Umsatzsteuer 19%  13.49", 300.0, 114.0),
            ("Umsatzsteuer 7%  54.81", 300.0, 128.0),
            ("Gesamtbetrag (EUR)  922.3", 300.0, 142.0),
        ];
        let mut doc = doc_from(&lines);
        assert_eq!(DocStyle::detect(&doc).money, amounts::MoneyPrint::Cents);
        for p in &mut doc.pages {
            p.source = Source::Office;
        }
        let style = DocStyle::detect(&doc);
        assert_eq!(style.money, amounts::MoneyPrint::Shortest);
        let cands = extract(&doc);
        let total = cands
            .items
            .iter()
            .find(|c| c.value == "922.3")
            .expect("922.3");
        assert!(cands.is_money(total));
    }

    /// A page of `(text, x, y, height)` rows; words 0.5 height wide per character.
    /// Two party blocks side by side under two labels on one line, the buyer's (`Maksātājs:`)
    /// left and the seller's (`Izpildītājs:`) right: a place the training documents never
    /// show a seller in. Rows for [`doc_rows`].
    pub(crate) const PARTIES_BUYER_LEFT: &[(&str, f32, f32, f32)] = &[
        ("Maksātājs:", 40.0, 100.0, 10.0),
        ("Izpildītājs:", 320.0, 100.0, 10.0),
        ("SIA \"IT risinājumi Krūmiņš\"", 40.0, 112.0, 10.0),
        ("AS \"Tipogrāfija Nord\"", 320.0, 112.0, 10.0),
        ("Brīvības iela 115", 40.0, 124.0, 10.0),
        ("Brīvības iela 34", 320.0, 124.0, 10.0),
        ("LV-5401 Daugavpils", 40.0, 136.0, 10.0),
        ("LV-1050 Rīga", 320.0, 136.0, 10.0),
        ("PVN reģ. Nr. LV59346076254", 40.0, 148.0, 10.0),
        ("PVN reģ. Nr. LV42347399484", 320.0, 148.0, 10.0),
    ];

    pub(crate) fn doc_rows(rows: &[(&str, f32, f32, f32)]) -> CleanDocument {
        let mut words = Vec::new();
        for &(text, x, y, h) in rows {
            let mut x = x;
            for t in text.split(' ') {
                let x1 = x + t.chars().count() as f32 * h * 0.5;
                words.push(Word {
                    text: t.into(),
                    bbox: BBox::new(x, y, x1, y + h),
                    confidence: 1.0,
                });
                x = x1 + h * 0.4;
            }
        }
        page_doc(words)
    }

    #[test]
    fn cis_title_lines_give_number_and_written_date() {
        for (line, number, date) in [
            (
                "Акт виконаних робіт No 15/03 від 15 березня 2024 р.",
                "15/03",
                "2024-03-15",
            ),
            (
                "Акт выполненных работ No 47 от «12» марта 2024 г.",
                "47",
                "2024-03-12",
            ),
            // `послуг` heads description columns too: inside the title it is the title's word.
            (
                "Акт надання послуг No 840/21 від 9 червня 2021 р.",
                "840/21",
                "2021-06-09",
            ),
            (
                "Счёт на оплату № 118 от 3 апреля 2024 г.",
                "118",
                "2024-04-03",
            ),
            (
                "Numer WZ: WZ 58/05/2024 z dnia 14.05.2024",
                "WZ 58/05/2024",
                "2024-05-14",
            ),
            // A Portuguese invoice's copy designation (`original`, `duplicado`) in its title:
            // no reference to another invoice.
            (
                "Fatura original N.o documento FT 2023/6744, Emitida em: 27-07-2023",
                "FT 2023/6744",
                "2023-07-27",
            ),
        ] {
            let c = extract(&doc_from(&[(line, 10.0, 10.0)]));
            let get = |k: CandidateKind| c.of(k).map(|c| c.value.clone()).collect::<Vec<_>>();
            assert_eq!(get(CandidateKind::DocNumber), [number], "{line}");
            assert_eq!(get(CandidateKind::Date), [date], "{line}");
        }
    }

    #[test]
    fn a_labelled_date_with_a_lost_separator_is_a_date_and_an_unlabelled_one_is_not() {
        let d = doc_from(&[
            ("RECEIPT # CS00633850 DATE: 2504/2017", 10.0, 10.0),
            ("Invoice 0112/2019", 10.0, 30.0),
            ("Date/Time  20180428/191204", 10.0, 50.0),
            ("Order 20180429", 10.0, 70.0),
        ]);
        let c = extract(&d);
        assert_eq!(
            values(&c, CandidateKind::Date),
            ["2017-04-25", "2018-04-28"]
        );
    }

    #[test]
    fn extracts_kinds_with_spans() {
        let d = doc_from(&[
            ("Rechnung Nr. RE-2024-17 vom 05.03.2024", 10.0, 10.0),
            ("USt-IdNr.: DE123456789", 10.0, 30.0),
            ("IBAN DE89 3704 0044 0532 0130 00", 10.0, 50.0),
            ("Gesamtbetrag 1.234,56 EUR", 10.0, 70.0),
            ("Tel.: +49 89 1234567 info@lieferant.de", 10.0, 90.0),
        ]);
        let c = extract(&d);
        let get = |k: CandidateKind| c.of(k).map(|c| c.value.clone()).collect::<Vec<_>>();
        assert_eq!(get(CandidateKind::DocNumber), ["RE-2024-17"]);
        assert_eq!(get(CandidateKind::Date), ["2024-03-05"]);
        assert_eq!(get(CandidateKind::TaxId), ["DE123456789"]);
        assert_eq!(get(CandidateKind::Iban), ["DE89370400440532013000"]);
        assert!(get(CandidateKind::Amount).contains(&"1234.56".to_string()));
        assert_eq!(get(CandidateKind::Currency), ["EUR"]);
        assert_eq!(get(CandidateKind::Email), ["info@lieferant.de"]);
        assert_eq!(get(CandidateKind::Phone), ["+49 89 1234567"]);
        let amt = c
            .of(CandidateKind::Amount)
            .find(|a| a.value == "1234.56")
            .unwrap();
        assert_eq!(amt.currency.as_deref(), Some("EUR"));
        assert_eq!(amt.span.line, 3);
        assert!(amt.span.bbox.x0 > 10.0);
        // No amount from the IBAN, the date or the VAT id.
        assert!(
            !get(CandidateKind::Amount)
                .iter()
                .any(|v| v == "3704" || v == "2024")
        );
        // A labelled VAT id whose country code OCR read as a look-alike digit: the repair whose
        // check digits hold; a repair whose check digits fail stays as printed.
        for (printed, read) in [
            ("Y-tunnus F149236620", "FI49236620"),
            ("Partita IVA 1T32296988762", "IT32296988762"),
            ("Y-tunnus F149236621", "F149236621"),
        ] {
            let c = extract(&doc_from(&[(printed, 10.0, 10.0)]));
            let ids: Vec<_> = c
                .of(CandidateKind::TaxId)
                .map(|c| c.value.clone())
                .collect();
            assert_eq!(ids, [read], "{printed}");
        }
    }

    #[test]
    fn labelled_national_ids() {
        let d = doc_from(&[
            ("ЄДРПОУ 12345678", 10.0, 10.0),
            ("ИНН/КПП 7707083893/773601001", 10.0, 30.0),
            ("Steuernummer: 201/113/40209", 10.0, 50.0),
        ]);
        let c = extract(&d);
        let ids: Vec<(String, String)> = c
            .of(CandidateKind::TaxId)
            .map(|c| (c.scheme.clone().unwrap_or_default(), c.value.clone()))
            .collect();
        assert!(
            ids.contains(&("UA_EDRPOU".into(), "12345678".into())),
            "{ids:?}"
        );
        assert!(
            ids.contains(&("RU_INN".into(), "7707083893".into())),
            "{ids:?}"
        );
        assert!(
            ids.contains(&("RU_KPP".into(), "773601001".into())),
            "{ids:?}"
        );
        assert!(
            ids.contains(&("DE_STNR".into(), "201/113/40209".into())),
            "{ids:?}"
        );
    }

    /// A tax-id label's value is neither a date nor a value printed after another field's label
    /// (a grid row of label-value pairs whose id is printed on the next line).
    #[test]
    fn a_tax_id_label_does_not_take_a_date() {
        let d = doc_from(&[
            ("PVN reg. Nr.  Datums:  19.04.2019", 10.0, 10.0),
            ("LV43559499913  Apmaksas termiņš:  26.04.2019", 10.0, 30.0),
            ("VAT No.: 12.03.2024", 10.0, 50.0),
            ("USt-IdNr.  DE123456789", 10.0, 70.0),
            ("HRB Nr. 372876", 10.0, 90.0),
        ]);
        let c = extract(&d);
        let ids = values(&c, CandidateKind::TaxId);
        assert!(
            ids.contains(&"DE123456789") && ids.contains(&"372876"),
            "{ids:?}"
        );
        assert!(
            !ids.iter().any(|v| v.contains("2019") || v.contains("2024")),
            "{ids:?}"
        );
        assert_eq!(
            values(&c, CandidateKind::Date),
            ["2019-04-19", "2019-04-26", "2024-03-12"]
        );
    }

    #[test]
    fn number_under_its_label() {
        let d = doc_from(&[("Invoice No.", 10.0, 10.0), ("INV-0042", 10.0, 24.0)]);
        let c = extract(&d);
        assert_eq!(
            c.of(CandidateKind::DocNumber).next().unwrap().value,
            "INV-0042"
        );
    }

    #[test]
    fn number_under_a_label_cell_of_more_words_and_after_a_glued_abbreviation() {
        // The number word's cell holds another word of the label (`N.º documento`, read
        // `N.o documento`); the next cells' labels are unknown (`Emitida em`).
        let d = doc_from(&[
            ("N.o documento      Emitida em      Data limite", 10.0, 10.0),
            ("2019-39474         08-05-2019      07-07-2019", 10.0, 24.0),
        ]);
        let numbers = |d: &CleanDocument| -> Vec<String> {
            extract(d)
                .of(CandidateKind::DocNumber)
                .map(|c| c.value.clone())
                .collect()
        };
        assert_eq!(numbers(&d), ["2019-39474"]);
        // `Doc.n.:`: a word of the vocabulary abbreviated before the number word; `S.n.c.`
        // (a legal form) stays no number label.
        let d = doc_from(&[("Doc.n.:  RE-2024-22657", 10.0, 10.0)]);
        assert_eq!(numbers(&d), ["RE-2024-22657"]);
        let d = doc_from(&[("Rossi S.n.c. 4471", 10.0, 10.0)]);
        assert!(numbers(&d).is_empty());
    }

    #[test]
    fn number_under_its_label_in_a_grid_row() {
        // `label over value` cells side by side: the number is under its own label.
        let d = doc_from(&[
            (
                "Document no.:      Date of issue:      Due date:",
                10.0,
                10.0,
            ),
            ("86671-B            2019-02-25", 10.0, 24.0),
        ]);
        let c = extract(&d);
        let n: Vec<_> = c
            .of(CandidateKind::DocNumber)
            .map(|c| c.value.clone())
            .collect();
        assert_eq!(n, ["86671-B"]);
    }

    #[test]
    fn numbers_of_unknown_keys_are_unlabelled_references() {
        let d = doc_from(&[
            ("Tunnus:", 10.0, 10.0),
            ("2025/691", 10.0, 22.0),
            ("Gebühr: 1.250,00", 10.0, 40.0),
            ("Zeitpunkt: 04.01.2025", 10.0, 60.0),
            ("Belegkennung: FCT-86579", 10.0, 80.0),
            ("Hinweis: bitte zahlen", 10.0, 100.0),
        ]);
        let c = extract(&d);
        let refs: Vec<_> = c
            .of(CandidateKind::Reference)
            .filter(|c| c.label.is_none())
            .map(|c| c.value.clone())
            .collect();
        assert_eq!(refs, ["2025/691", "FCT-86579"]);
    }

    fn unknown_key_refs(lines: &[(&str, f32, f32)]) -> Vec<String> {
        // A line far below: the keys sit in the upper half of the page.
        let mut lines = lines.to_vec();
        lines.push(("Danke", 10.0, 400.0));
        extract(&doc_from(&lines))
            .of(CandidateKind::Reference)
            .filter(|c| c.label.is_none())
            .map(|c| c.value.clone())
            .collect()
    }

    #[test]
    fn written_dates_wrapped_over_two_lines() {
        let dates = |rows: &[(&str, f32, f32)]| {
            let c = extract(&doc_from(rows));
            c.of(CandidateKind::Date)
                .map(|c| (c.span.line, c.value.clone()))
                .collect::<Vec<_>>()
        };
        assert_eq!(
            dates(&[
                (
                    "Factura No documento 2026-710, Fecha de emisión: 5 de febrero",
                    24.0,
                    40.0
                ),
                ("de 2026", 268.0, 54.0),
                ("Fecha de pago: 19 de febrero de 2026", 48.0, 83.0),
            ]),
            [(0, "2026-02-05".to_string()), (2, "2026-02-19".to_string())]
        );
        assert_eq!(
            dates(&[
                (
                    "Krediitarve Dokumendi nr R-2023-83807, Koostamise kuupäev: 3.",
                    56.0,
                    40.0
                ),
                ("detsember 2023", 237.0, 54.0),
            ]),
            [(0, "2023-12-03".to_string())]
        );
        // Numbers over a line of numbers make no date; lines far apart are not one text.
        assert!(dates(&[("Menge 12", 24.0, 40.0), ("05 2026 Stück", 24.0, 54.0)]).is_empty());
        assert!(
            dates(&[
                ("Datum: 5 de febrero", 24.0, 40.0),
                ("de 2026", 24.0, 140.0)
            ])
            .is_empty()
        );
    }

    #[test]
    fn numbers_of_unknown_keys_in_grids_and_cells() {
        // A grid row of keys over a row of values: the number under its key.
        assert_eq!(
            unknown_key_refs(&[
                ("Giti:      Zefu:", 10.0, 10.0),
                ("2023-35057      09/10/2023", 10.0, 22.0)
            ]),
            ["2023-35057"]
        );
        // Keys without colons, when the row below holds a date; a prefix printed apart.
        assert_eq!(
            unknown_key_refs(&[
                ("Reduti      Desubi", 10.0, 10.0),
                ("FT 2022/1754      19-08-2022", 10.0, 22.0)
            ]),
            ["FT 2022/1754"]
        );
        // A key of two words beside keys the vocabulary knows.
        assert_eq!(
            unknown_key_refs(&[
                ("Inv. ref.      Date of issue      Due", 10.0, 10.0),
                ("F-2022-77093      10/01/2022      11/03/2022", 10.0, 22.0)
            ]),
            ["F-2022-77093"]
        );
        // Without a known key beside them, keys of several words are none (a sentence).
        assert!(
            unknown_key_refs(&[
                ("Ferbo gu      Tarlo mi", 10.0, 10.0),
                ("F-2022-77093      10/01/2022", 10.0, 22.0)
            ])
            .is_empty()
        );
        // Without a date below, words over numbers are no grid of keys.
        assert!(
            unknown_key_refs(&[
                ("Pozycja      Ilosc", 10.0, 10.0),
                ("12      40", 10.0, 22.0)
            ])
            .is_empty()
        );
        // The bare word for a reference without its colon on the first line, or after a
        // title; not in a line of other text, nor in a table's header.
        assert_eq!(
            unknown_key_refs(&[(
                "Note Référence FA202108-3917, Émise le : 18/04/2021",
                10.0,
                10.0
            )]),
            ["FA202108-3917"]
        );
        assert_eq!(
            unknown_key_refs(&[
                ("Dupont SARL", 10.0, 10.0),
                ("Facture de vente Référence 438/2022", 10.0, 22.0)
            ]),
            ["438/2022"]
        );
        assert!(
            unknown_key_refs(&[
                ("Dupont SARL", 10.0, 10.0),
                ("Votre Référence 438/2022", 10.0, 22.0)
            ])
            .is_empty()
        );
        assert!(
            unknown_key_refs(&[("Référence 4711  Désignation  Quantité  Prix", 10.0, 10.0)])
                .is_empty()
        );
        // A key's colon OCR read as a dot after its abbreviation's (`Rif.:` as `Rif..`).
        assert_eq!(
            unknown_key_refs(&[
                ("Rif..      Del:", 10.0, 10.0),
                ("2020-22427      23 luglio 2020", 10.0, 22.0)
            ]),
            ["2020-22427"]
        );
        // Several pairs on one line; the value in the next cell of its key.
        assert_eq!(
            unknown_key_refs(&[("Gegemi: 280/2022      Dosase: 24.10.2022", 10.0, 10.0)]),
            ["280/2022"]
        );
        assert_eq!(
            unknown_key_refs(&[("31000 Toulouse      Sabi :      F-2022-06901", 10.0, 10.0)]),
            ["F-2022-06901"]
        );
        // A phone's digit groups after an unknown key are no number.
        assert!(unknown_key_refs(&[("Risope: 447 691 584 365", 10.0, 10.0)]).is_empty());
        // Pairs a scan's OCR set without a column gap: each key its own cell.
        assert_eq!(
            unknown_key_refs(&[("Tate: F2023/8964 Matapo: 15 de agosto de 2023", 10.0, 10.0)]),
            ["F2023/8964"]
        );
        assert_eq!(
            unknown_key_refs(&[(
                "Mudo: 95582 Vuro: 24 november 2019 Repu: 1 december 2019",
                10.0,
                10.0
            )]),
            ["95582"]
        );
    }

    #[test]
    fn the_corrected_invoice_is_a_reference_not_the_number() {
        for line in [
            "Corrects invoice:      2021-32593",
            "Rectifica la factura:      A-6834",
            "Vedrørende faktura nr. 25066184",
            "zur Rechnung Nr. 2024-72649",
        ] {
            let c = extract(&doc_from(&[(line, 10.0, 10.0)]));
            assert_eq!(c.of(CandidateKind::DocNumber).count(), 0, "{line}");
            let refs: Vec<_> = c
                .of(CandidateKind::Reference)
                .map(|c| (c.value.as_str(), c.label))
                .collect();
            assert_eq!(refs.len(), 1, "{line}: {refs:?}");
            assert_eq!(refs[0].1, Some(LabelKey::Corrects), "{line}");
        }
        // In a grid row: the value under the label.
        let c = extract(&doc_from(&[
            ("Tipidi      Miume      Do rakhunku", 10.0, 10.0),
            ("9136      28.07.2025      K006735", 10.0, 22.0),
        ]));
        assert!(c.of(CandidateKind::DocNumber).next().is_none());
    }

    #[test]
    fn a_legal_forms_letter_is_no_number_word() {
        // `n` of `S.n.c.` over a street line is no `n.` label with its value below.
        let c = extract(&doc_from(&[
            ("Ricci & Russo S.n.c.", 10.0, 10.0),
            ("Viale Europa 87, 00184 Roma", 10.0, 22.0),
        ]));
        assert_eq!(c.of(CandidateKind::DocNumber).count(), 0);
        let c = extract(&doc_from(&[("N.o:  B062316", 10.0, 10.0)]));
        let n: Vec<_> = c
            .of(CandidateKind::DocNumber)
            .map(|c| c.value.clone())
            .collect();
        assert_eq!(n, ["B062316"]);
    }

    #[test]
    fn szamlaszam_names_the_invoice_unless_its_value_is_an_account() {
        let numbers = |line: &str| {
            let c = extract(&doc_from(&[(line, 10.0, 10.0)]));
            c.of(CandidateKind::DocNumber)
                .map(|c| (c.value.clone(), c.label))
                .collect::<Vec<_>>()
        };
        assert_eq!(
            numbers("Számlaszám: 2025/941"),
            [("2025/941".to_string(), Some(LabelKey::Number))]
        );
        // As OCR reads the accents.
        assert_eq!(numbers("Szämlaszäm: SZLA-2024-6302").len(), 1);
        assert!(numbers("Számlaszám: 11773016-11111018-00000000").is_empty());
        assert!(numbers("Számlaszám: 11773016 11111018").is_empty());
        // A grid of labels over values: the same rule under the label.
        let grid = |value: &str| {
            let c = extract(&doc_from(&[
                ("Szamlaszam      Kelt", 10.0, 10.0),
                (value, 10.0, 24.0),
            ]));
            c.of(CandidateKind::DocNumber)
                .map(|c| (c.value.clone(), c.label))
                .collect::<Vec<_>>()
        };
        assert_eq!(
            grid("326/2020      2020-01-10"),
            [("326/2020".to_string(), Some(LabelKey::Number))]
        );
        assert!(grid("11773016-11111018      2020-01-10").is_empty());
    }

    #[test]
    fn a_value_under_its_label_is_found_past_a_stray_mark_elsewhere_on_the_page() {
        // OCR's `|` at the right margin, set between the label line and the value line.
        let mut words: Vec<Word> = vec![
            word("Laskunro:", 10.0, 10.0),
            word("Päiväys:", 120.0, 10.0),
            word("2022/252", 10.0, 26.0),
            word("14.09.2022", 120.0, 26.0),
        ];
        words.push(Word {
            text: "|".into(),
            bbox: BBox::new(500.0, 6.0, 502.0, 44.0),
            confidence: 1.0,
        });
        let doc = page_doc(words);
        let texts: Vec<&str> = doc.lines.iter().map(|l| l.text.as_str()).collect();
        assert_eq!(texts[1], "|", "{texts:?}");
        let c = extract(&doc);
        let found: Vec<&str> = c
            .of(CandidateKind::DocNumber)
            .map(|c| c.value.as_str())
            .collect();
        assert_eq!(found, ["2022/252"]);
        // A line wholly below the label with nothing under it ends the search: what stands
        // lower down is no longer the label's value.
        let c = extract(&page_doc(vec![
            word("Laskunro:", 10.0, 10.0),
            word("Myyjä", 300.0, 22.0),
            word("2022/252", 10.0, 34.0),
        ]));
        assert_eq!(c.of(CandidateKind::DocNumber).count(), 0);
    }

    #[test]
    fn a_table_header_is_no_grid_of_labels() {
        // `#` over the first row's position is no document number.
        let d = doc_from(&[
            ("# Description Qty Price Amount", 10.0, 10.0),
            ("1 Consulting 2 100.00 200.00", 10.0, 24.0),
        ]);
        let c = extract(&d);
        assert_eq!(c.of(CandidateKind::DocNumber).count(), 0);
    }

    #[test]
    fn numbers_under_label_rows_and_after_strong_labels() {
        let numbers = |lines: &[(&str, f32, f32)]| -> Vec<String> {
            let doc = doc_from(lines);
            extract(&doc)
                .of(CandidateKind::DocNumber)
                .map(|c| c.value.clone())
                .collect()
        };
        // A label row whose next label the vocabulary reads in part (`Rg.-Datum`).
        assert_eq!(
            numbers(&[
                ("Rechnungsnummer  Rg.-Datum", 10.0, 100.0),
                ("25048213  01.07.2025", 10.0, 112.0),
            ]),
            ["25048213"]
        );
        // A series prefix printed apart under the label.
        assert_eq!(
            numbers(&[
                ("Faktura nr:  Data:", 10.0, 100.0),
                ("FS 358/2022  17.06.2022", 10.0, 112.0),
            ]),
            ["FS 358/2022"]
        );
        // `n°` closing the label.
        assert_eq!(
            numbers(&[
                ("Facture n°  Date", 10.0, 100.0),
                ("608/2022  19/07/2022", 10.0, 112.0),
            ]),
            ["608/2022"]
        );
        // Numbered per month and year: date-shaped, but the strong label says number.
        assert_eq!(
            numbers(&[("Nr faktury: 4/03/2022", 10.0, 100.0)]),
            ["4/03/2022"]
        );
        // A generic `Nr` before a date does not make it a number.
        assert!(numbers(&[("Nr 4/03/2022", 10.0, 100.0)]).is_empty());
    }

    #[test]
    fn house_numbers_are_not_document_numbers() {
        let doc = doc_from(&[
            ("Alpha Instalatii Electrice S.A.", 10.0, 40.0),
            ("Bd. Unirii nr. 17", 10.0, 55.0),
            ("NO 53, JALAN BESAR", 10.0, 70.0),
            ("Numar: FCT88186", 300.0, 100.0),
        ]);
        let numbers: Vec<String> = extract(&doc)
            .of(CandidateKind::DocNumber)
            .map(|c| c.value.clone())
            .collect();
        assert_eq!(numbers, ["FCT88186"]);
        // A company's form `N.V.` over its street's house number: no number sign.
        let doc = doc_from(&[
            ("Bakker & de Boer N.V.", 48.0, 134.0),
            ("Stationsweg 109", 48.0, 146.0),
        ]);
        assert_eq!(extract(&doc).of(CandidateKind::DocNumber).count(), 0);
        // A bare number word before the seller's VAT id printed elsewhere: no number.
        let doc = doc_from(&[
            ("Rechnung", 10.0, 10.0),
            ("Issued by  No GB244450086  Received by", 10.0, 400.0),
            (
                "Whitfield Limited · 134 Victoria Road · VAT Reg. No. GB244450086",
                10.0,
                700.0,
            ),
        ]);
        assert_eq!(extract(&doc).of(CandidateKind::DocNumber).count(), 0);
        // The street in the column left of the number's cell is not the label's: the number
        // beside an address line (`5 rue de la Paix, 75002 Paris  N° 88213`) is the document's.
        let beside = |line: &str| -> Vec<String> {
            extract(&doc_from(&[
                ("Hôtel Le Parc SARL  FACTURE", 10.0, 40.0),
                (line, 10.0, 55.0),
            ]))
            .of(CandidateKind::DocNumber)
            .map(|c| c.value.clone())
            .collect()
        };
        assert_eq!(
            beside("5 rue de la Paix, 75002 Paris      N° 88213"),
            ["88213"]
        );
        assert!(beside("5 rue de la Paix N° 12, 75002 Paris").is_empty());
    }

    #[test]
    fn a_label_word_glued_to_the_number_is_not_the_number_s() {
        fn read(t: &str, from: usize) -> Option<&str> {
            number_after(t, from).map(|(s, e)| &t[s..e])
        }
        // The next label glued after it (OCR lost the space), with or without its colon.
        let t = "Número: A-5915Fecha factura: 05-08-2026";
        assert_eq!(read(t, "Número".len()), Some("A-5915"));
        assert_eq!(
            read("No. FA202411-3403Date: 1.2.2024", 3),
            Some("FA202411-3403")
        );
        // The label's own word glued before it.
        assert_eq!(read("Nr paragonu4555", 2), Some("4555"));
        // Letters that name nothing stay the number's.
        assert_eq!(read("Nr. INV2024", 3), Some("INV2024"));
        assert_eq!(read("Nr. 2024ABC", 3), Some("2024ABC"));
        assert_eq!(read("Nr. Rg2024-17", 3), Some("Rg2024-17"));
    }

    #[test]
    fn nouns_compounded_with_a_number_word_label_the_number() {
        // The values read (a title and a number label before the same value each give it).
        let numbers = |line: &str| {
            let c = extract(&doc_from(&[(line, 10.0, 10.0)]));
            let mut v: Vec<String> = c
                .of(CandidateKind::DocNumber)
                .map(|c| c.value.clone())
                .collect();
            v.dedup();
            v
        };
        // After a title, after another number label, alone, glued to its value.
        assert_eq!(
            numbers("Leveringsbon Documentnr. 2019/055, Uitgiftedatum: 1 februari 2019"),
            ["2019/055"]
        );
        assert_eq!(numbers("Kreditfaktura nr Dokumentnr 67141"), ["67141"]);
        assert_eq!(numbers("Belegnummer: FCT-2024-88"), ["FCT-2024-88"]);
        assert_eq!(numbers("ČekaNr.6/4789"), ["6/4789"]);
        assert_eq!(numbers("DocNo.A-5521"), ["A-5521"]);
        // Nouns that name another field, values of another field's shape, plain words.
        assert!(numbers("Kundennr. 100234").is_empty());
        assert!(numbers("Telnr. 0612345678").is_empty());
        assert!(numbers("Ondernemingsnr. BE0251373322").is_empty());
        assert!(numbers("Casino. 24 tables").is_empty());
        assert_eq!(
            number_compound("Dokumentnummer:"),
            Some("Dokumentnummer".len())
        );
        assert_eq!(number_compound("Nr."), None);
        assert_eq!(number_compound("Steuernummer"), None);
    }

    #[test]
    fn an_article_number_word_as_a_header_key_names_a_reference() {
        // `Reference:` over its value in a header grid: an unlabelled reference.
        let c = extract(&doc_from(&[
            ("Sales Invoice", 10.0, 10.0),
            ("Reference:      Tax point:      Pay by:", 10.0, 30.0),
            ("F-2021-41742      26/10/2021      09/11/2021", 10.0, 42.0),
        ]));
        let refs: Vec<_> = c
            .of(CandidateKind::Reference)
            .filter(|c| c.label.is_none())
            .map(|c| c.value.clone())
            .collect();
        assert_eq!(refs, ["F-2021-41742"]);
        // The bare word for a reference, which the vocabulary files as a customer's (`Referentie:
        // 05309` beside the date of issue), names one too; a customer's number does not.
        let refs = |key: &str| -> Vec<String> {
            extract(&doc_from(&[
                ("Nota", 10.0, 10.0),
                (&format!("{key}:  05309"), 300.0, 30.0),
                ("Uitgiftedatum:  16-02-2023", 300.0, 42.0),
            ]))
            .of(CandidateKind::Reference)
            .filter(|c| c.label.is_none())
            .map(|c| c.value.clone())
            .collect()
        };
        assert_eq!(refs("Referentie"), ["05309"]);
        assert!(refs("Klantnummer").is_empty());
        // An item table's `Code:` sub-line is no document reference.
        let c = extract(&doc_from(&[
            ("Pos   Description   Qty   Price   Amount", 10.0, 10.0),
            ("1   Laptop bag   2   10.00   20.00", 10.0, 24.0),
            ("Code: 6505166513517", 40.0, 36.0),
            ("2   Laptop case   1   15.00   15.00", 10.0, 48.0),
            ("Code: 6505166513524", 40.0, 60.0),
            ("Total   35.00", 10.0, 80.0),
        ]));
        assert_eq!(
            c.of(CandidateKind::Reference)
                .filter(|c| c.label.is_none())
                .count(),
            0
        );
        // Nor is an item block's `Réf.:` (items printed as `Key: value` blocks).
        let mut lines: Vec<(String, f32, f32)> = vec![("Facture".into(), 10.0, 10.0)];
        for (i, (r, d, q, p, a)) in [
            ("CE-3927", "Prestation de conseil", "5", "17,78", "88,90"),
            ("Z201R5", "Chaise de bureau", "1", "32,49", "32,49"),
        ]
        .into_iter()
        .enumerate()
        {
            let y = 40.0 + 90.0 * i as f32;
            lines.push((format!("Article {}", i + 1), 10.0, y));
            for (k, kv) in [
                format!("Réf.:  {r}"),
                format!("Désignation :  {d}"),
                format!("Qté :  {q}"),
                format!("P.U. HT :  {p}"),
                format!("Montant HT :  {a}"),
            ]
            .into_iter()
            .enumerate()
            {
                lines.push((kv, 20.0, y + 12.0 * (k + 1) as f32));
            }
        }
        lines.push(("Total HT :  121,39".into(), 200.0, 240.0));
        let refs: Vec<(&str, f32, f32)> =
            lines.iter().map(|(t, x, y)| (t.as_str(), *x, *y)).collect();
        let c = extract(&doc_from(&refs));
        assert_eq!(c.item_table.as_ref().map(|t| t.rows.len()), Some(2));
        assert_eq!(
            c.of(CandidateKind::Reference)
                .filter(|c| c.label.is_none())
                .count(),
            0
        );
    }

    #[test]
    fn a_grid_label_s_value_sits_under_its_cell_s_start() {
        let c = extract(&doc_from(&[
            ("Документ No:      Дата документа:", 10.0, 10.0),
            ("2768      «16» марта 2022 г.", 10.0, 22.0),
        ]));
        let found: Vec<_> = c
            .of(CandidateKind::DocNumber)
            .map(|c| c.value.clone())
            .collect();
        assert_eq!(found, ["2768"]);
    }

    #[test]
    fn a_key_s_words_before_a_colon_set_apart_are_the_label_s() {
        fn read(t: &str, from: usize) -> Option<&str> {
            number_after(t, from).map(|(s, e)| &t[s..e])
        }
        // French typography: a space before the colon.
        assert_eq!(
            read("N° de pièce :  FA202502-7090", 1),
            Some("FA202502-7090")
        );
        assert_eq!(read("N° de pièce: FA202502-7090", 1), Some("FA202502-7090"));
        // A word of another field's label before the colon is that field's value.
        assert_eq!(read("N° TVA : FR40303265045", 1), None);
        assert_eq!(read("N° TVA: FR40303265045", 1), None);
        // One noun after the number word (`N.º documento`, read `N.o documento`).
        assert_eq!(
            read("N.o documento 2022-12970, Data", 1),
            Some("2022-12970")
        );
        assert_eq!(read("Nº documento 2022-12970", 1), Some("2022-12970"));
        // Not after other words, not a noun of another field, not without a value.
        assert_eq!(read("Rechnung Projekt 2022-12970", 8), None);
        assert_eq!(read("Nº cliente 4711", 1), None);
        assert_eq!(read("Nº documento abc 2022", 1), None);
    }

    #[test]
    fn number_after_fillers() {
        let t = "Talão n.o 061066  13/09/2020";
        let (s, e) = number_after(t, "Talão n".len()).unwrap();
        assert_eq!(&t[s..e], "061066");
        let t = "Talão n.º 061066";
        let (s, e) = number_after(t, "Talão n".len()).unwrap();
        assert_eq!(&t[s..e], "061066");
        // The ordinal glued to the number: the label ends with it.
        let t = "Talão n.o8/7403";
        let hit = labels::find_labels(t)
            .into_iter()
            .find(|h| h.key == LabelKey::Number)
            .unwrap();
        let (s, e) = number_after(t, hit.end).unwrap();
        assert_eq!(&t[s..e], "8/7403");
        // The number word glued to the number.
        let t = "Tšeki nr047525";
        let hit = labels::find_labels(t)
            .into_iter()
            .find(|h| h.key == LabelKey::Number)
            .unwrap();
        let (s, e) = number_after(t, hit.end).unwrap();
        assert_eq!(&t[s..e], "047525");
        // After `N.o` read as one number word, a noun before the value.
        let t = "Fatura-recibo N.o documento FT 2026/8269, Emitida em";
        let (s, e) = number_after(t, "Fatura-recibo N.o".len()).unwrap();
        assert_eq!(&t[s..e], "FT 2026/8269");
        let t = "Handelsrechnung (380) Nr. 471102 vom";
        let (s, e) = number_after(t, "Handelsrechnung (380)".len()).unwrap();
        assert_eq!(&t[s..e], "471102");
        assert!(number_after("Rechnung vom 05.03.2018", 8).is_none());
        let t = "Facture n° F2024-01";
        let (s, e) = number_after(t, 7).unwrap();
        assert_eq!(&t[s..e], "F2024-01");
        // The number sign and its colon glued to the value (OCR).
        let t = "Facture n°:F-2020-03041 Date de facture: 7 avril 2020";
        let (s, e) = number_after(t, "Facture n".len()).unwrap();
        assert_eq!(&t[s..e], "F-2020-03041");
        let t = "Facture n°:FA202411-3403Date: 7mars2024";
        let (s, e) = number_after(t, "Facture n".len()).unwrap();
        assert_eq!(&t[s..e], "FA202411-3403");
        let t = "Рахунок №:15";
        let (s, e) = number_after(t, "Рахунок".len()).unwrap();
        assert_eq!(&t[s..e], "15");
        // OCR's `;` for the key's colon.
        let t = "Saskaitos Nr.; 520/2025";
        let (s, e) = number_after(t, "Saskaitos Nr".len()).unwrap();
        assert_eq!(&t[s..e], "520/2025");
        // A document type and series before the number.
        let t = "Número: FT A/4811  Data: 3 de setembro de 2021";
        let (s, e) = number_after(t, "Número".len()).unwrap();
        assert_eq!(&t[s..e], "FT A/4811");
        // A noun after the number word, then the series' prefix apart from its digits.
        let t = "Factura Nr. document BV 9646, Data facturii: 11/05/2023";
        let (s, e) = number_after(t, "Factura Nr".len()).unwrap();
        assert_eq!(&t[s..e], "BV 9646");
        let t = "Fatura-recibo N.o documento FT 2026/8269, Emitida em:";
        let (s, e) = number_after(t, "Fatura-recibo N".len()).unwrap();
        assert_eq!(&t[s..e], "FT 2026/8269");
    }
}
