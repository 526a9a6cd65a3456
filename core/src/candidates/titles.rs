//! The vocabulary of document titles: the phrases that name a document's type in twenty
//! languages (en, de, fr, pl, uk, ru, nl, it, es, pt, cs, sk, lt, lv, et, fi, sv, da, hu, ro),
//! on lower-cased text with Latin diacritics folded.
//!
//! The document-type stage ([`crate::classify`]) weighs these phrases by where they are printed;
//! the party finder ([`super::parties`]) uses them to keep a title (`Kassebon`, `Reçu de
//! paiement`) out of the seller's name. One list serves both.

use crate::result::DocumentType;
use regex::Regex;
use std::sync::LazyLock;

/// Special handling of a rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Flag {
    None,
    /// Counts only in title-like lines.
    TitleOnly,
    /// "счёт-фактура": an invoice in a Ukrainian document.
    RuTaxInvoice,
}

pub(crate) struct Rule {
    pub(crate) ty: DocumentType,
    pub(crate) re: Regex,
    pub(crate) weight: f32,
    pub(crate) flag: Flag,
}

/// (type, pattern on lower-cased text with ё → е, weight, flag).
const RULES: &[(DocumentType, &str, f32, Flag)] = {
    use DocumentType::*;
    use Flag::*;
    &[
        // Invoice.
        (
            Invoice,
            r"invoice|vat invoice|commercial invoice|e-invoice",
            1.0,
            None,
        ),
        (
            Invoice,
            r"rechnung|e-rechnung|schlussrechnung|teilrechnung|abschlagsrechnung|(?:handels|waren|bau|beitrags|sammel|end|jahres|monats|dienstleistungs|honorar|miet|zwischen)rechnung",
            1.0,
            None,
        ),
        (Invoice, r"facture", 1.0, None),
        (
            Invoice,
            r"faktura|faktura vat|faktura vat mar[zż]a",
            1.0,
            None,
        ),
        (
            Invoice,
            r"рахунок|рахунок[- ]фактура|рахунок на оплату",
            1.0,
            None,
        ),
        (Invoice, r"сч[её]т|сч[её]т на оплату", 1.0, None),
        // Proforma.
        (ProformaInvoice, r"pro[- ]?forma", 1.2, None),
        (
            ProformaInvoice,
            r"pro[- ]?forma[- ]?(?:invoice|rechnung|faktura)|proformarechnung",
            1.3,
            None,
        ),
        (
            ProformaInvoice,
            r"(?:facture|faktura|invoice) pro[- ]?forma",
            1.3,
            None,
        ),
        (
            ProformaInvoice,
            r"(?:рахунок|сч[её]т)[- ]?проформа|про[- ]?форма",
            1.3,
            None,
        ),
        // Credit note.
        (
            CreditNote,
            r"credit note|credit memo|credit invoice",
            1.3,
            None,
        ),
        (
            CreditNote,
            r"gutschrift|rechnungskorrektur|stornorechnung|korrekturrechnung",
            1.3,
            None,
        ),
        (
            CreditNote,
            r"facture d'avoir|note de cr[eé]dit|avoir",
            1.3,
            TitleOnly,
        ),
        (CreditNote, r"facture d'avoir|note de cr[eé]dit", 1.3, None),
        (
            CreditNote,
            r"faktura koryguj[aą]ca|nota koryguj[aą]ca|korekta faktury|nota kredytowa|faktura korekta",
            1.3,
            None,
        ),
        (
            CreditNote,
            r"кредит[- ]нота|кредитна нота|кредитовая нота|розрахунок коригування|корректировочн(?:ый|ая) сч[её]т(?:[- ]?фактура)?",
            1.3,
            None,
        ),
        (CreditNote, r"korekta|коригування", 1.3, TitleOnly),
        // Tax invoice.
        (TaxInvoice, r"податкова накладна", 1.3, None),
        (TaxInvoice, r"tax invoice", 1.2, None),
        (TaxInvoice, r"сч[её]т[- ]?фактура", 1.3, RuTaxInvoice),
        // Act.
        (
            Act,
            r"акт (?:виконаних|наданих|здачі|приймання|прийому)[- ]?(?:робіт|послуг|приймання|передачі|передавання)?(?:[- ](?:робіт|послуг|передачі))?",
            1.4,
            None,
        ),
        (
            Act,
            r"акт (?:выполненных|оказанных|сдачи|приема|приемки)[- ]?(?:работ|услуг|приемки|передачи)?(?:[- ](?:работ|услуг))?",
            1.4,
            None,
        ),
        (Act, r"акт", 1.0, TitleOnly),
        (
            Act,
            r"protok[oó][lłt] (?:odbioru|zdawczo[- ]odbiorczy)",
            1.4,
            None,
        ),
        (
            Act,
            r"abnahmeprotokoll|abnahmebescheinigung|abnahmebestatigung|abnahmebericht|leistungsnachweis|fertigstellungsbescheinigung|fertigstellungsanzeige|ubergabeprotokoll",
            1.3,
            None,
        ),
        (
            Act,
            r"certificate of (?:completion|acceptance|practical completion)|completion certificate|(?:work |job )?completion report|acceptance (?:certificate|act|protocol|report)|act of acceptance|act of completed works|statement of (?:completed )?works? (?:completed|done)",
            1.3,
            None,
        ),
        (
            Act,
            r"proc[eè]s[- ]verbal de (?:r[eé]ception|livraison)|attestation de fin de travaux|certificat de r[eé]ception",
            1.3,
            None,
        ),
        // Waybill.
        (
            Waybill,
            r"waybill|way bill|delivery note|delivery docket|consignment note|bill of lading|dispatch note|goods dispatch note|shipping note|packing slip|packing list",
            1.2,
            None,
        ),
        (
            Waybill,
            r"lieferschein|frachtbrief|warenbegleitschein|begleitschein|versandschein|warenausgangsschein|transportschein",
            1.2,
            None,
        ),
        (
            Waybill,
            r"bon de livraison|bordereau de livraison|lettre de voiture",
            1.2,
            None,
        ),
        (
            Waybill,
            r"list przewozowy|wydanie zewn[eę]trzne|dow[oó]d dostawy",
            1.2,
            None,
        ),
        (Waybill, r"wz", 1.0, TitleOnly),
        (
            Waybill,
            r"товарно[- ]транспортна накладна|видаткова накладна|товарна накладна|накладна",
            1.2,
            None,
        ),
        (
            Waybill,
            r"товарно[- ]транспортная накладная|расходная накладная|товарная накладная|накладная|торг[- ]12",
            1.2,
            None,
        ),
        (Waybill, r"ттн", 1.0, TitleOnly),
        // Receipt.
        (
            Receipt,
            r"receipt|cash receipt|sales receipt|official receipt|payment receipt|till receipt|cash bill|cash sale",
            1.0,
            None,
        ),
        (
            Receipt,
            r"kassenbon|kassenbeleg|kassenzettel|quittung|kaufbeleg|zahlungsbeleg",
            1.2,
            None,
        ),
        (
            Receipt,
            r"re[cç]u|re[cç]u de paiement|ticket de caisse|ticket de vente",
            1.2,
            None,
        ),
        (Receipt, r"paragon|paragon fiskalny", 1.2, None),
        (
            Receipt,
            r"квитанція|квитанция|фіскальний чек|касовий чек|кассовый чек|товарный чек|товарний чек",
            1.2,
            None,
        ),
        (Receipt, r"чек", 1.0, TitleOnly),
        // Further European languages (nl, it, es, pt, cs, sk, lt, lv, et, fi, sv, da, hu, ro),
        // on text with Latin diacritics folded (`faktúra` reads `faktura`).
        (
            Invoice,
            r"factuur|btw[- ]factuur|fattura|fattura elettronica|fattura accompagnatoria|factura|factura fiscala|fatura|fatura[- ]recibo",
            1.0,
            None,
        ),
        (
            Invoice,
            r"danovy doklad|faktura[- ]+danovy doklad|(?:pvm )?saskaita[- ]faktura|rekins|rekins[- ]pavadzime|(?:precu )?pavadzime[- ]rekins|arve|muugiarve|kaubaarve|ettemaksuarve|lasku|myyntilasku|ennakkolasku|szamla|szamla sorszama",
            1.0,
            None,
        ),
        (
            CreditNote,
            r"creditnota|creditfactuur|nota di credito|nota credito|nota di accredito|factura rectificativa|factura de abono|nota de abono|nota de credito|dobropis|opravny danovy doklad|opravny doklad|opravna faktura|kreditine (?:pvm )?saskaita(?:[- ]faktura)?|kreditrekins|kredita rekins|korekcijas rekins|kreeditarve|krediitarve|hyvityslasku|kreditfaktura|kreditnota|jovairo szamla|helyesbito szamla|sztorno szamla|factura storno|factura de stornare|nota de credit|credit nota|creditnotitie|credit factuur|kreditnotis|hyvitystosite",
            1.3,
            None,
        ),
        (
            CreditNote,
            r"abono|hyvitys|gutschriftsanzeige",
            1.3,
            TitleOnly,
        ),
        (
            Act,
            r"proces[- ]verbaal van oplevering|opleveringsrapport|verbale di (?:collaudo|consegna)(?: (?:dei )?lavori)?|certificato di collaudo|acta de (?:recepcion|entrega|conformidad)|auto de rece(?:c|p)(?:c)?ao|predavaci protokol|protokol o predani|preberaci protokol|odovzdavaci protokol|priemimo[- ]perdavimo aktas|atliktu darbu aktas|pienemsanas[- ]nodosanas akts|uleandmise[- ]vastuvotmise akt|vastaanottotodistus|luovutuspoytakirja|hyvaksymispoytakirja|vastaanottopoytakirja|afleveringsprotokol|godkannandeprotokoll|overlamningsprotokoll|vastuvotuakt|uleandmisakt|uleandmis[- ]vastuvotuakt|protokol o odovzdani(?: a prevzati)?(?: diela)?|protokol o prevzati(?: diela)?|termo de (?:aceitacao|entrega)|verbale di accettazione|acta de aceptacion|opleveringsverklaring|opleveringsprotocol|teljesitesi igazolas|teljesitesigazolas|certificato di regolare esecuzione|certificado de conformidad|auto de consignacao|protokol o prevzeti dila|leveransgodkannande|slutbesiktningsprotokoll|overtagelsesattest|atadas[- ]atveteli jegyzokonyv|muszaki atadas[- ]atvetel|opleverbon|opleveringsbon|proces[- ]verbal de (?:receptie|predare[- ]primire)|akceptacni protokol|protokol o akceptaci|akceptacny protokol|godkendelsesprotokol|overtagelsesprotokol|afleveringsrapport|godkjenningsprotokoll|overtakelsesprotokoll|overleveringsprotokoll|acceptatieprotocol|acceptatierapport|verbale di fine lavori|acta de finalizacion|auto de conclusao|informe de conformidad|atejimo aktas|darbu pienemsanas akts|toode uleandmise akt|valmistumisilmoitus|teljesitesi jegyzokonyv|proces[- ]verbal de finalizare",
            1.4,
            None,
        ),
        (Act, r"aktas|akts|akt", 1.0, TitleOnly),
        (
            Waybill,
            r"pakbon|afleverbon|leveranssedel|leveringsbon|vrachtbrief|documento di trasporto|bolla di (?:consegna|accompagnamento)|albaran|nota de entrega|carta de porte|guia de (?:remessa|transporte)|dodaci list|nakladni list|(?:krovinio )?vaztarastis|(?:precu )?pavadzime|saateleht|kaubasaateleht|veoseleht|prepravny list|prepravni list|guia de (?:entrega|despacho|remision)|afleveringsbewijs|szallitojegy|lahete|rahtikirja|foljesedel|fraktsedel|folgeseddel|leveringsseddel|lahetysluettelo|fragtbrev|szallitolevel|fuvarlevel|aviz de insotire(?: a marfii)?|aviz de expeditie|scrisoare de trasura|vrachtbon|bolla di trasporto|pakkseddel|fraktbrev|kiszallitasi jegyzek|lahetyslista|tovarove sprievodny list|sprievodny list",
            1.2,
            None,
        ),
        (Waybill, r"ddt", 1.0, TitleOnly),
        (
            Receipt,
            r"kassabon|kassaticket|betaalbewijs|scontrino|scontrino fiscale|documento commerciale|ricevuta(?: fiscale)?|factura simplificada|fatura simplificada|recibo|talao|uctenka|pokladni doklad|pokladnicny doklad|kasos cekis|kvitas|kases ceks|kvits|kassatsekk|kviitung|kassakuitti|kuitti|kassakvitto|kvitto|kopkvitto|kvittering|kassebon|salgsbon|nyugta|penztarbizonylat|myyntikuitti|ostokuitti|ticket de compra|ticket de venta|ricevuta di pagamento|aankoopbewijs|kwitantie|stvrzenka|pokladnicny blok|pirkimo cekis|ostutsekk|bon fiscal|chitanta",
            1.2,
            None,
        ),
        (
            Receipt,
            r"tsekk|cekis|ceks|blokk|blok|bon|ticket",
            1.0,
            TitleOnly,
        ),
        // Contract.
        (
            Contract,
            r"contract|agreement|[a-zäöüß]*vertrag|contrat|umowa|договір|договор|контракт|contratto|contrato|smlouva|zmluva|sutartis|ligums|leping|sopimus|avtal|kontrakt|szerzodes",
            1.3,
            TitleOnly,
        ),
    ]
};

pub(crate) static COMPILED: LazyLock<Vec<Rule>> = LazyLock::new(|| {
    RULES
        .iter()
        .filter_map(|&(ty, pat, weight, flag)| {
            Regex::new(&format!(r"\b(?:{})\b", longest_first(pat)))
                .ok()
                .map(|re| Rule {
                    ty,
                    re,
                    weight,
                    flag,
                })
        })
        .collect()
});

/// A pattern's top-level alternatives, the longest written first: the regex takes the first
/// alternative that matches at a position, and a phrase must win over its own first word
/// (`reçu de paiement` over `reçu`, `faktura vat` over `faktura`).
fn longest_first(pat: &str) -> String {
    let mut alts: Vec<&str> = Vec::new();
    let (mut depth, mut start) = (0i32, 0usize);
    let mut escaped = false;
    for (i, c) in pat.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' => escaped = true,
            '(' | '[' => depth += 1,
            ')' | ']' => depth -= 1,
            '|' if depth == 0 => {
                alts.extend(pat.get(start..i));
                start = i + 1;
            }
            _ => {}
        }
    }
    alts.extend(pat.get(start..));
    alts.sort_by_key(|a| std::cmp::Reverse(a.len()));
    alts.join("|")
}

/// Lower-cased, `ё` as `е`, Latin diacritics folded: the text the phrases are matched on.
pub(crate) fn normalise(text: &str) -> String {
    let lower = text.to_lowercase().replace('ё', "е").replace('’', "'");
    super::labels::fold_diacritics(&lower).into_owned()
}

/// Non-overlapping matches of the rules in `text`, longest first: (rule index, start, end).
pub(crate) fn matches(text: &str) -> Vec<(usize, usize, usize)> {
    let mut all: Vec<(usize, usize, usize)> = Vec::new();
    for (i, rule) in COMPILED.iter().enumerate() {
        for m in rule.re.find_iter(text) {
            all.push((i, m.start(), m.end()));
        }
    }
    all.sort_by(|a, b| (b.2 - b.1).cmp(&(a.2 - a.1)).then(a.1.cmp(&b.1)));
    let mut taken: Vec<(usize, usize)> = Vec::new();
    let mut out = Vec::new();
    for (i, s, e) in all {
        if taken.iter().any(|&(ts, te)| s < te && e > ts) {
            continue;
        }
        taken.push((s, e));
        out.push((i, s, e));
    }
    out
}

/// Words that may stand beside a title without being part of it: a number's key (`Rechnung
/// Nr.`, `Faktura č.`) and the copy marks (`Original`, `Kopie`).
const TITLE_COMPANIONS: &[&str] = &[
    "nr",
    "no",
    "n",
    "nro",
    "num",
    "number",
    "nummer",
    "numer",
    "numero",
    "cislo",
    "c",
    "номер",
    "original",
    "originaal",
    "originale",
    "copy",
    "kopie",
    "kopia",
    "kopio",
    "copia",
    "duplicate",
    "duplikat",
    "duplicado",
    "duplicata",
];

/// Whether a line is a document's title and nothing else: every word of it lies in a phrase of
/// the vocabulary (any rule, title-only ones included, since the line is taken as a title) or is
/// a number, a number's key or a copy mark (`Kassebon`, `Reçu de paiement`, `Rechnung Nr. 12`,
/// `Faktura - originál`). A name that merely holds such a word (`Receipt Bank Ltd`) is not.
pub fn title_phrase(text: &str) -> bool {
    let norm = normalise(text);
    let spans: Vec<(usize, usize)> = matches(&norm)
        .into_iter()
        .map(|(_, start, end)| (start, end))
        .collect();
    if spans.is_empty() {
        return false;
    }
    let mut words = 0;
    for (start, word) in word_spans(&norm) {
        let end = start + word.len();
        let inside = spans.iter().any(|&(s, e)| start >= s && end <= e);
        let number = word.chars().any(|c| c.is_ascii_digit());
        if !(inside || number || TITLE_COMPANIONS.contains(&word)) {
            return false;
        }
        words += usize::from(inside);
    }
    words > 0
}

/// The words of a text (runs of letters and digits) with their byte offsets.
fn word_spans(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in text.char_indices() {
        match (c.is_alphanumeric(), start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                out.extend(text.get(s..i).map(|w| (s, w)));
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        out.extend(text.get(s..).map(|w| (s, w)));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_of_a_title_only_is_a_title() {
        for t in [
            "Kassebon",
            "Reçu de paiement",
            "Ticket de compra",
            "Pénztárbizonylat",
            "Myyntikuitti",
            "Kwitantie",
            "INVOICE",
            "Rechnung Nr. 2024-17",
            "Faktura - originál",
            "Товарный чек № 5",
            "Faktura VAT",
            "Verbale di consegna lavori",
        ] {
            assert!(title_phrase(t), "{t}");
        }
        // A name holding a title word, a title with more words after it, no title at all.
        for t in [
            "Receipt Bank Ltd",
            "Sorensen Byg ApS",
            "Rechnung für Mai",
            "Invoice to: Acme",
            "",
            "12/2024",
        ] {
            assert!(!title_phrase(t), "{t}");
        }
    }

    #[test]
    fn the_longest_alternative_is_tried_first() {
        assert_eq!(longest_first("a|abc|ab"), "abc|ab|a");
        // Alternatives inside a group or a class stay where they are.
        assert_eq!(
            longest_first(r"re[cç]u|re[cç]u de (?:paiement|caisse)"),
            r"re[cç]u de (?:paiement|caisse)|re[cç]u"
        );
        assert_eq!(longest_first(r"x\|y|z"), r"x\|y|z");
        // So a rule matches the whole phrase, not its first word.
        let m = matches(&normalise("Reçu de paiement"));
        let found = m
            .first()
            .and_then(|&(_, s, e)| "recu de paiement".get(s..e));
        assert_eq!(found, Some("recu de paiement"));
    }
}
