//! Multilingual label vocabulary (en, de, fr, pl, uk, ru; Malaysian receipt English; nl, it, es,
//! pt, cs, sk, lt, lv, et, fi, sv, da, hu, ro) and matching.
//!
//! Text is normalised to lower-case alphanumeric words (`ё` → `е`, everything else a separator),
//! so `USt-IdNr.:` is the word sequence `ust idnr`; for matching, Latin diacritics are folded
//! (`Číslo` and `Cislo`, `Nº` and `No` are the same word). A phrase matches a run of consecutive
//! words; the longest phrase wins at each position. Long words (7+ characters) tolerate one OCR
//! edit.

use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::sync::LazyLock;

/// What a label announces.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LabelKey {
    /// Gross total.
    Total,
    /// Net total.
    Net,
    /// VAT amount / VAT summary.
    Vat,
    /// Amount payable / due.
    Payable,
    /// Subtotal.
    Subtotal,
    /// Discount.
    Discount,
    /// Prepaid / already paid.
    Prepaid,
    /// Document-level charges: freight, packaging, surcharges added to the line items' sum.
    Charges,
    /// A subtotal carried from one page to the next (`Übertrag`, `do przeniesienia`): the items'
    /// sum so far, which ends a page's rows and is none of the document's totals.
    CarriedOver,
    /// Rounding adjustment.
    Rounding,
    /// Cash tendered.
    Cash,
    /// Change given back.
    Change,
    /// Issue date.
    Date,
    /// Weak date marker ("vom", "du", "від", "dated").
    DateWeak,
    /// Due date.
    DueDate,
    /// Delivery / service date.
    DeliveryDate,
    /// Document number (specific: "Invoice No.").
    Number,
    /// Generic number word ("Nr.", "No.", "#").
    NumberGeneric,
    /// Customer / client number (not the document number).
    CustomerNumber,
    /// Document title word (Invoice, Rechnung, Facture, Рахунок ...).
    Title,
    /// Seller / supplier.
    Seller,
    /// Buyer / customer.
    Buyer,
    /// Consignee / delivery address.
    Consignee,
    /// "Name:" inside a party block.
    Name,
    /// "Address:" inside a party block.
    Address,
    /// EU VAT id.
    VatId,
    /// Generic tax id / tax number.
    TaxId,
    /// German Steuernummer.
    StNr,
    /// Polish NIP.
    Nip,
    /// Ukrainian EDRPOU.
    Edrpou,
    /// Ukrainian IPN.
    Ipn,
    /// Russian INN.
    Inn,
    /// Russian KPP.
    Kpp,
    /// Malaysian GST id.
    GstId,
    /// Malaysian SST id.
    SstId,
    /// French SIRET / SIREN.
    Siret,
    /// Company registration number.
    RegNo,
    /// IBAN.
    Iban,
    /// BIC / SWIFT.
    Bic,
    /// Bank name.
    Bank,
    /// Account number.
    Account,
    /// Phone.
    Phone,
    /// E-mail.
    Email,
    /// Contract reference.
    Contract,
    /// Order reference.
    Order,
    /// The invoice a credit note or correction refers to ("Corrects invoice", "zur Rechnung",
    /// "Rectifica la factura"): its number is not the document's.
    Corrects,
    /// Service period.
    Period,
    /// Version of a form, stylesheet or code list ("Version 2.1 vom 24.03.2020"): its date is
    /// not the document's.
    Version,
    /// Payment terms.
    PaymentTerms,
    /// Signature.
    Signature,
    /// Director / manager (signatory position).
    Director,
    /// Accountant (signatory position).
    Accountant,
    /// Currency.
    Currency,
    /// Counts printed near totals ("Total Qty", "Total items"): not money.
    Count,
    /// Table column: position.
    ColPos,
    /// Table column: description.
    ColDesc,
    /// Table column: article / SKU.
    ColSku,
    /// Table column: quantity.
    ColQty,
    /// Table column: unit.
    ColUnit,
    /// Table column: unit price.
    ColUnitPrice,
    /// Table column: a row's discount (a percentage, printed with `%` or without).
    ColDiscount,
    /// Table column: VAT rate.
    ColVatRate,
    /// Table column: VAT amount.
    ColVatAmount,
    /// Table column: net amount.
    ColAmount,
    /// Table column: gross amount.
    ColAmountGross,
}

impl LabelKey {
    /// Whether this is a table column header key.
    pub fn is_column(self) -> bool {
        matches!(
            self,
            LabelKey::ColPos
                | LabelKey::ColDesc
                | LabelKey::ColSku
                | LabelKey::ColQty
                | LabelKey::ColUnit
                | LabelKey::ColUnitPrice
                | LabelKey::ColDiscount
                | LabelKey::ColVatRate
                | LabelKey::ColVatAmount
                | LabelKey::ColAmount
                | LabelKey::ColAmountGross
        )
    }
    /// Whether this label announces a money total of the document.
    pub fn is_totals(self) -> bool {
        matches!(
            self,
            LabelKey::Total
                | LabelKey::Net
                | LabelKey::Vat
                | LabelKey::Payable
                | LabelKey::Subtotal
                | LabelKey::Discount
                | LabelKey::Prepaid
                | LabelKey::Charges
                | LabelKey::Rounding
                | LabelKey::Cash
                | LabelKey::Change
        )
    }
    /// Whether this label announces a tax / registration id.
    pub fn is_tax_id(self) -> bool {
        matches!(
            self,
            LabelKey::VatId
                | LabelKey::TaxId
                | LabelKey::StNr
                | LabelKey::Nip
                | LabelKey::Edrpou
                | LabelKey::Ipn
                | LabelKey::Inn
                | LabelKey::Kpp
                | LabelKey::GstId
                | LabelKey::SstId
                | LabelKey::Siret
                | LabelKey::RegNo
        )
    }
    /// Whether this label starts a party block.
    pub fn is_party(self) -> bool {
        matches!(
            self,
            LabelKey::Seller | LabelKey::Buyer | LabelKey::Consignee
        )
    }
}

use LabelKey as K;

/// The vocabulary: phrases as printed (normalised at start-up).
const VOCAB: &[(LabelKey, &[&str])] = &[
    (
        K::Total,
        &[
            "total",
            "grand total",
            "total amount",
            "total amt",
            "total incl",
            "total inclusive",
            "total incl vat",
            "total incl. gst",
            "total inclusive gst",
            "total incl gst",
            "total including gst",
            "total gross",
            "gross",
            "gross amount",
            "total sales inclusive gst",
            "rounded total",
            "round total",
            "round d total",
            "total rounded",
            "nett total",
            "net total incl",
            "total rm",
            "total amount rm",
            "invoice total",
            "gesamt",
            "gesamtbetrag",
            "rechnungsbetrag",
            "rechnungssumme",
            "gutschriftsbetrag",
            "endbetrag",
            "bruttobetrag",
            "brutto",
            "gesamtsumme",
            "summe",
            "gesamt brutto",
            "summe brutto",
            "betrag brutto",
            "rechnungsbetrag brutto",
            "gesamtbetrag brutto",
            "bruttosumme",
            "total ttc",
            "montant ttc",
            "net à payer ttc",
            "total general",
            "montant total",
            "razem",
            "razem brutto",
            "wartość brutto",
            "suma",
            "do zapłaty razem",
            "всього",
            "разом",
            "всього з пдв",
            "усього",
            "усього з пдв",
            "разом з пдв",
            "загальна сума",
            "итого",
            "всего",
            "итого с ндс",
            "всего с ндс",
            "всего к оплате",
            "сумма с ндс",
            "total due",
            "grand total rm",
            "total payable",
        ],
    ),
    (
        K::Net,
        &[
            "net",
            "net amount",
            "net total",
            "total net",
            "total excl",
            "total excl vat",
            "total excluding gst",
            "total sales excluding gst",
            "total excl gst",
            "subtotal excl",
            "nettobetrag",
            "netto",
            "summe netto",
            "gesamt netto",
            "nettosumme",
            "warenwert",
            "summe positionen",
            "gesamtbetrag netto",
            "rechnungsbetrag netto",
            "total ht",
            "montant ht",
            "base ht",
            "total hors taxes",
            "razem netto",
            "wartość netto",
            "suma netto",
            "сума без пдв",
            "всього без пдв",
            "разом без пдв",
            "итого без ндс",
            "сумма без ндс",
            "total before tax",
            "amount excl",
            "line total",
            "total net amount",
            "total sales",
            "basisbetrag",
            "gesamtsumme netto",
            "nettowert",
        ],
    ),
    (
        K::Vat,
        &[
            "vat",
            "vat amount",
            "total vat",
            "tax",
            "tax amount",
            "total tax",
            "sales tax",
            "gst",
            "total gst",
            "gst amount",
            "sst",
            "service tax",
            "gst 6",
            "mwst",
            "mwst betrag",
            "ust",
            "umsatzsteuer",
            "mehrwertsteuer",
            "steuerbetrag",
            "summe mwst",
            "summe ust",
            "zzgl mwst",
            "zzgl ust",
            "zzgl umsatzsteuer",
            "inkl mwst",
            "enthaltene mwst",
            "umsatzsteuerbetrag",
            "gesamt ust",
            "gesamtbetrag ust",
            "tva",
            "montant tva",
            "total tva",
            "vat kwota",
            "kwota vat",
            "podatek vat",
            "пдв",
            "сума пдв",
            "у тому числі пдв",
            "в тому числі пдв",
            "ндс",
            "сумма ндс",
            "в том числе ндс",
            "в т ч ндс",
            "vat total",
            "versicherungssteuer",
        ],
    ),
    (
        K::Payable,
        &[
            "amount due",
            "balance due",
            "total due",
            "payable",
            "amount payable",
            "to pay",
            "zahlbetrag",
            "zu zahlen",
            "zu zahlender betrag",
            "fälliger betrag",
            "offener betrag",
            "zahlbar",
            "net à payer",
            "montant à payer",
            "reste à payer",
            "à payer",
            "do zapłaty",
            "до сплати",
            "до оплати",
            "всього до сплати",
            "к оплате",
            "итого к оплате",
            "amount to pay",
            "zahlungsbetrag",
            "restbetrag",
        ],
    ),
    (
        K::Subtotal,
        &[
            "subtotal",
            "sub total",
            "sub-total",
            "zwischensumme",
            "sous total",
            "sous-total",
            "suma częściowa",
            "проміжний підсумок",
            "промежуточный итог",
        ],
    ),
    (
        K::Discount,
        &[
            "discount",
            "disc",
            "rabatt",
            "nachlass",
            "skonto",
            "remise",
            "rabais",
            "rabat",
            "знижка",
            "скидка",
            "total discount",
            "less discount",
            "allowance",
            "allowances",
            "total allowances",
            "sum of allowances",
            "abschlag",
            "abschläge",
            "gesamtbetrag der abschläge",
            "summe der abschläge",
            "summe abschläge",
            "nachlässe",
            "remises",
            "total des remises",
            "rabaty",
            "знижки",
            "скидки",
        ],
    ),
    (
        K::Prepaid,
        &[
            "prepaid",
            "already paid",
            "paid",
            "advance",
            "deposit",
            "anzahlung",
            "bereits gezahlt",
            "bereits bezahlt",
            "vorauszahlung",
            "geleistete anzahlung",
            "acompte",
            "déjà payé",
            "zaliczka",
            "zapłacono",
            "передоплата",
            "аванс",
            "предоплата",
            "erhaltene anzahlung",
            "anzahlungen",
            "erhaltene anzahlungen",
            "geleistete anzahlungen",
            "advance payment",
            "advance payments",
            "payments received",
            "acomptes",
            "acomptes versés",
            "zaliczki",
        ],
    ),
    (
        K::CarriedOver,
        &[
            "carried forward",
            "carried over",
            "brought forward",
            "carry forward",
            "carry over",
            "balance carried forward",
            "übertrag",
            "uebertrag",
            "übertrag von seite",
            "à reporter",
            "report de la page précédente",
            "do przeniesienia",
            "z przeniesienia",
            "перенесено",
            "перенесено зі стор",
            "перенесено со стр",
        ],
    ),
    (
        K::Charges,
        &[
            "charges",
            "total charges",
            "sum of charges",
            "surcharge",
            "surcharges",
            "shipping",
            "shipping costs",
            "shipping charges",
            "shipping fee",
            "shipping and handling",
            "shipping handling",
            "freight",
            "freight charges",
            "delivery charge",
            "delivery charges",
            "delivery fee",
            "postage",
            "handling fee",
            "zuschlag",
            "zuschläge",
            "gesamtbetrag der zuschläge",
            "summe der zuschläge",
            "summe zuschläge",
            "versandkosten",
            "versand",
            "fracht",
            "frachtkosten",
            "frachtbetrag",
            "transportkosten",
            "verpackungskosten",
            "porto",
            "frais de port",
            "frais de livraison",
            "frais d envoi",
            "frais de transport",
            "majoration",
            "majorations",
            "total des frais",
            "koszty wysyłki",
            "koszt wysyłki",
            "koszty dostawy",
            "koszt dostawy",
            "koszty transportu",
            "вартість доставки",
            "стоимость доставки",
            "надбавка",
        ],
    ),
    (
        K::Rounding,
        &[
            "rounding",
            "rounding adj",
            "rounding adjustment",
            "round adj",
            "roundind adjustment",
            "rounding adjustment rm",
            "adj",
            "rundung",
            "arrondi",
        ],
    ),
    (
        K::Cash,
        &[
            "cash",
            "cash tendered",
            "tendered",
            "tender",
            "payment",
            "paid amount",
            "visa",
            "mastercard",
            "master",
            "credit card",
            "card",
            "bar",
            "gegeben",
            "espèces",
            "gotówka",
            "готівка",
            "наличные",
            "received",
        ],
    ),
    (
        K::Change,
        &[
            "change",
            "change due",
            "balance",
            "rückgeld",
            "wechselgeld",
            "rendu",
            "reszta",
            "решта",
            "сдача",
        ],
    ),
    (
        K::Date,
        &[
            "date",
            "invoice date",
            "bill date",
            "receipt date",
            "doc date",
            "document date",
            "date of issue",
            "issue date",
            "issued",
            "datum",
            "rechnungsdatum",
            "belegdatum",
            "ausstellungsdatum",
            "date de facture",
            "date facture",
            "date d émission",
            "data",
            "data wystawienia",
            "data faktury",
            "дата",
            "дата складання",
            "дата виписки",
            "дата рахунку",
            "дата счета",
            "дата выписки",
            "trans date",
            "txn date",
            "tarikh",
        ],
    ),
    (
        K::DateWeak,
        &[
            "vom", "du", "from", "від", "от", "z dnia", "dated", "dnia", "le",
        ],
    ),
    (
        K::DueDate,
        &[
            "due date",
            "payment due",
            "due",
            "pay by",
            "payable by",
            "fällig",
            "fällig am",
            "fälligkeitsdatum",
            "fälligkeit",
            "zahlbar bis",
            "zahlungsziel",
            "date d échéance",
            "échéance",
            "date limite de paiement",
            "termin płatności",
            "termin zapłaty",
            "сплатити до",
            "оплатити до",
            "термін оплати",
            "срок оплаты",
            "оплатить до",
            "оплата до",
            "сплата до",
            "payment deadline",
            "pay before",
            "payment due date",
            "zahlungstermin",
            "fällig bis",
            "à payer avant le",
            "à régler avant le",
            "płatne do",
            "płatność do",
        ],
    ),
    (
        K::DeliveryDate,
        &[
            "delivery date",
            "date of supply",
            "service date",
            "lieferdatum",
            "leistungsdatum",
            "liefer und leistungsdatum",
            "leistungszeitraum",
            "date de livraison",
            "data dostawy",
            "data sprzedaży",
            "data wykonania usługi",
            "дата поставки",
            "дата відвантаження",
            "дата отгрузки",
            "lieferung",
            "liefertermin",
        ],
    ),
    (
        K::Number,
        &[
            "invoice no",
            "invoice number",
            "invoice nr",
            "inv no",
            "invoice #",
            "receipt no",
            "receipt number",
            "receipt #",
            "bill no",
            "bill number",
            "doc no",
            "document no",
            "document number",
            "credit note no",
            "cash bill no",
            "slip no",
            "transaction no",
            "trans no",
            "ref no",
            "cheque no",
            "tax invoice no",
            "rechnungsnummer",
            "rechnungsnr",
            "rechnung nr",
            "rechnung nummer",
            "belegnummer",
            "beleg nr",
            "gutschrift nr",
            "gutschriftsnummer",
            "n de facture",
            "numéro de facture",
            "facture n",
            "facture no",
            "numero de facture",
            "nr faktury",
            "faktura nr",
            "faktura vat nr",
            "numer faktury",
            "рахунок no",
            "рахунок фактура no",
            "видаткова накладна no",
            "накладна no",
            "акт no",
            "счет no",
            "счет фактура no",
            "накладная no",
            "номер рахунку",
            "номер счета",
            // A document's number by the generic noun (`Документ № 4700`, `N.º documento`).
            "документ no",
            "номер документа",
            "номер документу",
            "document nr",
            "dokument nr",
            "documentnummer",
            "documentnr",
            "dokumentnummer",
            "dokumentnr",
            "belegnr",
            // da: a voucher's number (`Bilagsnr.`).
            "bilagsnr",
            "bilagsnummer",
            "numer dokumentu",
            "nr dokumentu",
            "no documento",
            "no do documento",
            "no de documento",
            "número de documento",
            "numéro de document",
            "proforma no",
            "proforma invoice no",
            "invoice id",
            "invoice ref",
            "bill #",
            "nr paragonu",
            "paragon nr",
            "чек no",
        ],
    ),
    (
        K::NumberGeneric,
        &[
            "no",
            "nr",
            "number",
            "nummer",
            "numéro",
            "numer",
            "numero",
            "número",
            "număr",
            "numar",
            "číslo",
            "nro",
            "n",
            "номер",
            "#",
        ],
    ),
    (
        K::CustomerNumber,
        &[
            "customer no",
            "customer number",
            "customer id",
            "account no",
            "client no",
            "kundennummer",
            "kunden nr",
            "kundennr",
            "debitor",
            "debitorennummer",
            "n client",
            "numéro client",
            "nr klienta",
            "member",
            "member no",
            "lieferantennummer",
            "auftragsnummer",
            "order number",
            "bestellnummer",
            "bestellung",
            "table",
            "cashier",
            "pos",
            "terminal",
            "counter",
            "globale nummer",
            "artikelnummer",
            "ihre bestellung",
            "unser zeichen",
            "ihr zeichen",
            "projekt",
            "leitweg id",
            "lieferschein",
        ],
    ),
    (
        K::Title,
        &[
            "invoice",
            "tax invoice",
            "proforma invoice",
            "credit note",
            "receipt",
            "cash bill",
            "official receipt",
            "bill",
            "rechnung",
            "handelsrechnung",
            "gutschrift",
            "proformarechnung",
            "abschlagsrechnung",
            "teilrechnung",
            "schlussrechnung",
            "facture",
            "avoir",
            "faktura",
            "faktura vat",
            "faktura korygująca",
            "rachunek",
            "paragon",
            "рахунок",
            "рахунок фактура",
            "акт",
            "видаткова накладна",
            "податкова накладна",
            "счет",
            "счет фактура",
            "товарная накладная",
            "накладна",
            "накладная",
            "квитанция",
            "квитанція",
            "kostenrechnung",
            "betriebskostenabrechnung",
        ],
    ),
    (
        K::Seller,
        &[
            "bill from",
            "billed from",
            "billed by",
            "invoice from",
            "invoiced by",
            "supplied by",
            "provider",
            "service provider",
            "contractor",
            "merchant",
            "payee",
            "remit to",
            "anbieter",
            "dienstleister",
            "rechnung von",
            "verkauft von",
            "lieferer",
            "leistender unternehmer",
            "zahlungsempfänger",
            "versender",
            "facturé par",
            "vendu par",
            "prestataire de services",
            "expéditeur",
            "sprzedający",
            "usługodawca",
            "wykonawca",
            "zleceniobiorca",
            "nadawca",
            "підрядник",
            "відправник",
            "вантажовідправник",
            "подрядчик",
            "отправитель",
            "грузоотправитель",
            "seller",
            "supplier",
            "vendor",
            "sold by",
            "from",
            "issuer",
            "lieferant",
            "verkäufer",
            "rechnungssteller",
            "leistungserbringer",
            "auftragnehmer",
            "absender",
            "fournisseur",
            "vendeur",
            "émetteur",
            "prestataire",
            "sprzedawca",
            "wystawca",
            "dostawca",
            "постачальник",
            "виконавець",
            "продавець",
            "поставщик",
            "продавец",
            "исполнитель",
            "rechnungsaussteller",
        ],
    ),
    (
        K::Buyer,
        &[
            "recipient",
            "invoiced to",
            "charge to",
            "customer details",
            "client details",
            "customer name",
            "client name",
            "payer",
            "billing address",
            "invoice address",
            "guest",
            "guest name",
            "rechnung an",
            "besteller",
            "abnehmer",
            "zahlungspflichtiger",
            "rechnungsanschrift",
            "gast",
            "client facturé",
            "adresse de facturation",
            "facturer à",
            "commanditaire",
            "donneur d'ordre",
            "acquéreur",
            "payeur",
            "preneur",
            "kupujący",
            "zamawiający",
            "usługobiorca",
            "zleceniodawca",
            "klient",
            "клієнт",
            "клиент",
            "buyer",
            "customer",
            "client",
            "bill to",
            "billed to",
            "invoice to",
            "sold to",
            "purchaser",
            "kunde",
            "käufer",
            "rechnungsempfänger",
            "auftraggeber",
            "empfänger",
            "leistungsempfänger",
            "käufer leistungsempfänger",
            "acheteur",
            "destinataire",
            "facturé à",
            "nabywca",
            "odbiorca",
            "płatnik",
            "покупець",
            "замовник",
            "платник",
            "покупатель",
            "заказчик",
            "плательщик",
            "rechnungsadresse",
        ],
    ),
    (
        K::Consignee,
        &[
            "ship to",
            "deliver to",
            "delivery address",
            "consignee",
            "lieferadresse",
            "lieferanschrift",
            "warenempfänger",
            "adresse de livraison",
            "livré à",
            "вантажоодержувач",
            "грузополучатель",
            "miejsce dostawy",
        ],
    ),
    (
        K::Name,
        &[
            "name",
            "firma",
            "company",
            "nom",
            "raison sociale",
            "nazwa firmy",
            "назва",
            "наименование организации",
        ],
    ),
    (
        K::Address,
        &[
            "address",
            "anschrift",
            "adresse",
            "adres",
            "адреса",
            "адрес",
            "straße",
        ],
    ),
    (
        K::VatId,
        &[
            "vat id",
            "vat no",
            "vat number",
            "vat reg no",
            "vat registration no",
            "vat reg",
            "ust idnr",
            "ust id nr",
            "ust id",
            "ustid",
            "ustidnr",
            "ust identnr",
            "ust ident nr",
            "umsatzsteuer id",
            "umsatzsteuer identifikationsnummer",
            "umsatzsteuer idnr",
            "tva intracom",
            "tva intracommunautaire",
            "n tva",
            "numéro de tva",
            "n tva intracommunautaire",
            "identifiant tva",
            "vat identification number",
            "nip ue",
            "vat ue",
            "ust idnr des verkäufers",
            "ust id nummer",
            "mwst nr",
            "uid",
            "uid nr",
            "uid nummer",
            "vat nr",
            "vat id nr",
            "se nr",
            "se nummer",
        ],
    ),
    (
        K::TaxId,
        &[
            "tax id",
            "tax no",
            "tax number",
            "tin",
            "tax code",
            "steuer nr",
            "steuer id",
            "identifiant fiscal",
            "numéro fiscal",
            "податковий номер",
            "налоговый номер",
        ],
    ),
    (
        K::StNr,
        &["steuernummer", "st nr", "stnr", "steuer nummer", "st nr."],
    ),
    (K::Nip, &["nip", "nip nabywcy", "nip sprzedawcy"]),
    (
        K::Edrpou,
        &["єдрпоу", "код єдрпоу", "едрпоу", "код за єдрпоу", "edrpou"],
    ),
    (
        K::Ipn,
        &["іпн", "ипн", "ipn", "індивідуальний податковий номер"],
    ),
    (K::Inn, &["инн", "inn"]),
    (K::Kpp, &["кпп", "kpp"]),
    (
        K::GstId,
        &[
            "gst id",
            "gst reg no",
            "gst no",
            "gst reg",
            "gst registration no",
            "gst id no",
            "co gst",
        ],
    ),
    (
        K::SstId,
        &["sst id", "sst reg no", "sst no", "sst registration no"],
    ),
    (K::Siret, &["siret", "siren", "n siret", "rcs"]),
    (
        K::RegNo,
        &[
            "company no",
            "company reg no",
            "reg no",
            "registration no",
            "co reg no",
            "roc no",
            "handelsregister",
            "handelsregisternummer",
            "registergericht",
            "hrb",
            "krs",
            "regon",
            "огрн",
            "co no",
            "business reg no",
            "brn",
        ],
    ),
    (K::Iban, &["iban", "iban nr", "iban code"]),
    (
        K::Bic,
        &[
            "bic",
            "swift",
            "bic swift",
            "swift bic",
            "swift code",
            "bic code",
            "bic swift code",
        ],
    ),
    (
        K::Bank,
        &[
            "bank",
            "bankverbindung",
            "kreditinstitut",
            "banque",
            "bank name",
            "nazwa banku",
            "банк",
            "bank details",
            "domiciliation",
        ],
    ),
    (
        K::Account,
        &[
            "account",
            "account number",
            "konto",
            "kontonummer",
            "compte",
            "numer konta",
            "рахунок no",
            "р р",
            "п р",
            "расчетный счет",
            "р с",
            "номер рахунку",
        ],
    ),
    (
        K::Phone,
        &[
            "tel",
            "telefon",
            "phone",
            "tél",
            "téléphone",
            "fon",
            "тел",
            "телефон",
            "mobile",
            "fax",
            "hp",
        ],
    ),
    (
        K::Email,
        &[
            "email",
            "e mail",
            "mail",
            "courriel",
            "эл почта",
            "ел пошта",
        ],
    ),
    (
        K::Contract,
        &[
            "contract",
            "contract no",
            "agreement",
            "vertrag",
            "vertragsnummer",
            "vertrag nr",
            "contrat",
            "umowa",
            "umowy",
            "договір",
            "договору",
            "договор",
            "договора",
        ],
    ),
    (
        K::Corrects,
        &[
            "corrects invoice",
            "correction of invoice",
            "correction to invoice",
            "credit for invoice",
            "refers to invoice",
            "relating to invoice",
            "original invoice",
            "original invoice no",
            "zur rechnung",
            "zu rechnung",
            "korrektur zur rechnung",
            "bezug auf rechnung",
            "ursprüngliche rechnung",
            "originalrechnung",
            "storno zu rechnung",
            "rectifica la factura",
            "factura rectificada",
            "factura original",
            "factura que se rectifica",
            "rectifie la facture",
            "facture d origine",
            "facture initiale",
            "avoir sur facture",
            "se rapporte à la facture",
            "corregge la fattura",
            "fattura di riferimento",
            "fattura originale",
            "rif fattura",
            "retifica a fatura",
            // Not `fatura original`: Portuguese invoices print their copy's designation
            // (`Original`, `Duplicado`) beside their own title.
            "fatura de origem",
            "corrigeert factuur",
            "originele factuur",
            "betreft factuur",
            "korekta faktury",
            "faktura korygowana",
            "dotyczy faktury",
            "do faktury",
            "opravuje fakturu",
            "k faktuře",
            "původní faktura",
            "opravuje faktúru",
            "k faktúre",
            "pôvodná faktúra",
            "koreguojama sąskaita",
            "pradinė sąskaita",
            "attiecas uz rēķinu",
            "sākotnējais rēķins",
            "parandab arvet",
            "algne arve",
            "koskee laskua",
            "alkuperäinen lasku",
            "hyvitettävä lasku",
            "avser faktura",
            "vedrørende faktura",
            "vedr faktura",
            "ursprunglig faktura",
            "krediterar faktura",
            "vedrører faktura",
            "oprindelig faktura",
            "krediterer faktura",
            "helyesbített számla",
            "eredeti számla",
            "corectează factura",
            "factura inițială",
            "factura stornată",
            "до рахунку",
            "до рахунку фактури",
            "коригує рахунок",
            "к счету",
            "к счету фактуре",
            "исправляет счет",
        ],
    ),
    (
        K::Order,
        &[
            "order",
            "order no",
            "order number",
            "purchase order",
            "po",
            "po number",
            "bestellung",
            "bestellnummer",
            "auftrag",
            "auftragsnummer",
            "ihre bestellung",
            "commande",
            "bon de commande",
            "n commande",
            "zamówienie",
            "замовлення",
            "заказ",
        ],
    ),
    (
        K::Version,
        &["version", "versión", "wersja", "версія", "версия"],
    ),
    (
        K::Period,
        &[
            "period",
            "service period",
            "billing period",
            "zeitraum",
            "leistungszeitraum",
            "abrechnungszeitraum",
            "période",
            "okres",
            "період",
            "период",
            "за період",
            "за период",
        ],
    ),
    (
        K::PaymentTerms,
        &[
            "payment terms",
            "terms",
            "zahlungsbedingungen",
            "zahlungsbedingung",
            "zahlbar innerhalb",
            "conditions de paiement",
            "conditions de règlement",
            "warunki płatności",
            "sposób płatności",
            "forma płatności",
            "умови оплати",
            "условия оплаты",
            "terms of payment",
            "zahlungsziel",
        ],
    ),
    (
        K::Signature,
        &[
            "signature",
            "signed",
            "authorised signature",
            "unterschrift",
            "signatur",
            "signé",
            "podpis",
            "підпис",
            "подпись",
            "від постачальника",
            "від покупця",
            "от поставщика",
        ],
    ),
    (
        K::Director,
        &[
            "director",
            "managing director",
            "ceo",
            "geschäftsführer",
            "geschäftsführung",
            "vorstand",
            "inhaber",
            "gérant",
            "directeur",
            "président",
            "prezes",
            "директор",
            "генеральний директор",
            "генеральный директор",
            "керівник",
            "руководитель",
        ],
    ),
    (
        K::Accountant,
        &[
            "accountant",
            "buchhalter",
            "comptable",
            "księgowa",
            "бухгалтер",
            "головний бухгалтер",
            "главный бухгалтер",
        ],
    ),
    (
        K::Currency,
        &["currency", "währung", "devise", "waluta", "валюта"],
    ),
    (
        K::Count,
        &[
            "total qty",
            "total quantity",
            "total items",
            "total item",
            "no of items",
            "item count",
            "total points",
            "points",
            "qty",
            "items",
            "total qty pcs",
            "anzahl artikel",
            "nombre d articles",
            "total pcs",
            "total units",
        ],
    ),
    (
        K::Total,
        &[
            "total after rounding",
            "total includes gst",
            "total include gst",
            "total sales inclusive of gst",
            "total inclusive of gst",
            "total incl of gst",
            "total amount inclusive gst",
            "total amount incl gst",
            "total amount payable",
            "total rm incl of gst",
            "total rounded rm",
            "amount due rm",
            "rounded total rm",
        ],
    ),
    (
        K::Discount,
        &[
            "total savings",
            "your total savings",
            "savings",
            "you saved",
        ],
    ),
    (
        K::ColPos,
        &[
            "pos",
            "position",
            "item",
            "lp",
            "no",
            "nr",
            "n",
            "#",
            "line",
            "№ з п",
            "п п",
        ],
    ),
    (
        K::ColDesc,
        &[
            "description",
            "item description",
            "desc",
            "code desc",
            "product",
            "article",
            "goods",
            "services",
            "bezeichnung",
            "beschreibung",
            "artikelbezeichnung",
            "leistung",
            "artikel",
            "produkt",
            "text",
            "désignation",
            "libellé",
            "description article",
            "nazwa",
            "nazwa towaru",
            "nazwa towaru lub usługi",
            "towar",
            "найменування",
            "назва",
            "товар",
            "послуга",
            "наименование",
            "товар услуга",
            "particulars",
            "details",
        ],
    ),
    (
        K::ColSku,
        &[
            "sku",
            "art nr",
            "artikelnr",
            "artikelnummer",
            "item code",
            "code",
            "référence",
            "ref",
            "kod",
            "код",
            "артикул",
            "ean",
            "gtin",
        ],
    ),
    (
        K::ColQty,
        &[
            "qty",
            "quantity",
            "menge",
            "anzahl",
            "anz",
            "quantité",
            "qté",
            "ilość",
            "ilosc",
            "кількість",
            "к сть",
            "кіл сть",
            "количество",
            "кол во",
            "units",
            "pcs",
            "qty pcs",
        ],
    ),
    (
        K::ColUnit,
        &[
            "unit",
            "uom",
            "einheit",
            "einh",
            "me",
            "u m",
            "unité",
            "j m",
            "jm",
            "jedn",
            "од",
            "од вим",
            "ед",
            "ед изм",
            "одиниця",
        ],
    ),
    (
        K::ColUnitPrice,
        &[
            "unit price",
            "price",
            "rate",
            "price per unit",
            "u price",
            "einzelpreis",
            "preis",
            "ep",
            "stückpreis",
            "einzelpreis netto",
            "preis netto",
            "preis einheit",
            "prix unitaire",
            "prix unit",
            "pu",
            "pu ht",
            // `P.U. HT`, `P.U.HT`: the abbreviation's letters as words of their own.
            "p u",
            "p u ht",
            "prix",
            "prix u ht",
            "prix unitaire ht",
            "cena",
            "cena netto",
            "cena jedn",
            "cena jednostkowa",
            "ціна",
            "ціна без пдв",
            "цена",
            "цена без ндс",
            "nettopreis",
            "preis eur",
            "unit price rm",
            "price rm",
        ],
    ),
    (
        K::ColDiscount,
        &[
            "discount",
            "discount %",
            "disc",
            "disc %",
            "rabatt",
            "rabatt %",
            "nachlass",
            "remise",
            "remise %",
            "rabat",
            "rabat %",
            "upust",
            "знижка",
            "знижка %",
            "скидка",
            "скидка %",
        ],
    ),
    (
        K::ColVatRate,
        &[
            "vat",
            "vat %",
            "vat rate",
            "tax rate",
            "tax %",
            "mwst",
            "mwst %",
            "mwst satz",
            "ust",
            "ust %",
            "ust satz",
            "steuersatz",
            "steuer",
            "tva",
            "taux tva",
            "tva %",
            "stawka vat",
            "stawka",
            "vat stawka",
            "ставка пдв",
            "ставка ндс",
            "пдв",
            "ндс",
            "gst",
            "gst %",
        ],
    ),
    (
        K::ColVatAmount,
        &[
            "vat amount",
            "kwota vat",
            "montant tva",
            "сума пдв",
            "сумма ндс",
            "gst amt",
            "tax amt",
        ],
    ),
    (
        K::ColAmount,
        &[
            "amount",
            "total",
            "line total",
            "net amount",
            "amount rm",
            "total rm",
            "betrag",
            "gesamtpreis",
            "gesamt",
            "summe",
            "nettobetrag",
            "netto",
            "gesamtpreis netto",
            "betrag netto",
            "betrag eur",
            "gesamt eur",
            "montant",
            "montant ht",
            "total ht",
            "wartość",
            "wartość netto",
            "сума",
            "сума без пдв",
            "сумма",
            "сумма без ндс",
            "net",
            "amt",
            "total price",
            "gesamtbetrag",
            "wert",
        ],
    ),
    (
        K::ColAmountGross,
        &[
            "gross",
            "gross amount",
            "total incl vat",
            "brutto",
            "betrag brutto",
            "montant ttc",
            "wartość brutto",
            "сума з пдв",
            "сумма с ндс",
            "total ttc",
        ],
    ),
];

/// The vocabulary of further European languages: nl, it, es, pt, cs, sk, lt, lv, et, fi, sv, da,
/// hu, ro (invoices, receipts, acceptance acts and delivery notes), on the same keys. Matched
/// after [`VOCAB`] (ties between equally long phrases keep [`VOCAB`]'s order) and, like it,
/// with diacritics folded, so `Číslo faktury` and `Cislo faktury` are one phrase.
///
/// Decisions: delivery-note and act names (`pakbon`, `dodací list`, `važtaraštis`, ...) are
/// [`LabelKey::Title`] (their number follows the title) and never [`LabelKey::Number`], as with
/// `Lieferschein`, so that an invoice quoting its delivery note keeps its own number; payment
/// references (`viitenumero`, `variabilní symbol`, `OCR`) are [`LabelKey::CustomerNumber`];
/// Hungarian `számlaszám` is a bank account number (the invoice's is `számla sorszáma`), unless
/// its value has no account's shape ([`names_invoice_or_account`]); CVR,
/// IČO, KvK, Y-tunnus and the like are registration numbers, `DIČ` a tax id whose shape decides
/// whether it is a VAT id (Czech `CZ…`) or not (Slovak).
const VOCAB_EU: &[(LabelKey, &[&str])] = &[
    (
        K::Total,
        &[
            // nl
            "totaal",
            "totaalbedrag",
            "totaal bedrag",
            "eindtotaal",
            "totaal incl btw",
            "totaal inclusief btw",
            "bedrag incl btw",
            // it
            "totale",
            "totale documento",
            "totale fattura",
            "importo totale",
            "totale complessivo",
            "totale ivato",
            "totale iva inclusa",
            "totale euro",
            // es
            "importe total",
            "total factura",
            "total con iva",
            "total iva incluido",
            "total importe",
            // pt
            "valor total",
            "total com iva",
            "total da fatura",
            "total documento",
            // cs
            "celkem",
            "celkem s dph",
            "celkem včetně dph",
            "celková částka",
            "celkem kč",
            "cena celkem",
            // sk
            "spolu",
            "celkom",
            "spolu s dph",
            "celkom s dph",
            "celková suma",
            "suma spolu",
            "spolu eur",
            // lt
            "iš viso",
            "viso",
            "iš viso su pvm",
            "viso su pvm",
            "suma su pvm",
            "bendra suma",
            "bendra vertė",
            "galutinė suma",
            // lv
            "kopā",
            "kopsumma",
            "kopā ar pvn",
            "summa ar pvn",
            "kopējā summa",
            "summa kopā",
            // et
            "kokku",
            "summa kokku",
            "arve summa",
            "kokku koos käibemaksuga",
            "kokku eur",
            "summa koos km ga",
            // fi
            "yhteensä",
            "kokonaissumma",
            "loppusumma",
            "yhteensä sis alv",
            "laskun summa",
            "summa",
            // sv
            "totalt",
            "totalbelopp",
            "summa inkl moms",
            "totalt inkl moms",
            "belopp inkl moms",
            // da
            "i alt",
            "total inkl moms",
            "beløb i alt",
            "totalbeløb",
            "slutbeløb",
            "i alt inkl moms",
            // hu
            "bruttó",
            "összesen",
            "végösszeg",
            "bruttó összesen",
            "bruttó végösszeg",
            "bruttó érték",
            "számla végösszege",
            "mindösszesen",
            // ro
            "total factură",
            "total cu tva",
            "valoare totală",
            "total valoare",
            "suma totală",
            // The invoice's amount by name: da/no/sv, nl, en, es, it, pt, cs, sk, ro, lt, lv
            "fakturabeløb",
            "fakturabeløp",
            "fakturabelopp",
            "factuurbedrag",
            "invoice amount",
            "importe factura",
            "importe de la factura",
            "importo fattura",
            "valor da fatura",
            "částka faktury",
            "suma faktúry",
            "valoare factură",
            "sąskaitos suma",
            "rēķina summa",
            // more words for the total: es/pt/ro/lt `bruto`, lv, et, sv, da, pl
            "bruto",
            "total bruto",
            "pavisam",
            "pavisam kopā",
            "lõppsumma",
            "slutsumma",
            "totalsumma",
            "samlet beløb",
            "kwota brutto",
        ],
    ),
    (
        K::Net,
        &[
            // nl
            "totaal excl btw",
            "totaal exclusief btw",
            "bedrag excl btw",
            "netto bedrag",
            "nettobedrag",
            "excl btw",
            // it
            "imponibile",
            "totale imponibile",
            "imponibile iva",
            "totale netto",
            "imponibile euro",
            // es
            "base imponible",
            "importe neto",
            "total sin iva",
            "base imp",
            // pt
            "base tributável",
            "valor sem iva",
            "total sem iva",
            "total ilíquido",
            "valor líquido",
            "base de incidência",
            "incidência",
            // cs
            "základ daně",
            "celkem bez dph",
            "bez dph",
            "cena bez dph",
            // sk
            "základ dane",
            "spolu bez dph",
            "celkom bez dph",
            // lt
            "suma be pvm",
            "iš viso be pvm",
            "viso be pvm",
            "be pvm",
            "apmokestinamoji suma",
            "apmokestinamoji vertė",
            // lv
            "summa bez pvn",
            "kopā bez pvn",
            "bez pvn",
            "ar pvn apliekamā summa",
            // et
            "summa käibemaksuta",
            "kokku käibemaksuta",
            "käibemaksuta",
            "maksustatav summa",
            "summa km ta",
            "summa ilma km ta",
            // fi
            "veroton",
            "veroton yhteensä",
            "yhteensä ilman alv",
            "ilman alv",
            "veroton hinta",
            // sv
            "exkl moms",
            "summa exkl moms",
            "belopp exkl moms",
            "nettobelopp",
            "totalt exkl moms",
            "momspliktigt belopp",
            // da
            "ekskl moms",
            "beløb ekskl moms",
            "total ekskl moms",
            "momsgrundlag",
            "nettobeløb",
            // hu
            "nettó",
            "nettó összesen",
            "nettó érték",
            "nettó összeg",
            "nettó érték összesen",
            "adóalap",
            // ro
            "total fără tva",
            "valoare fără tva",
            "baza de impozitare",
            "bază impozabilă",
            "valoare netă",
            "fără tva",
            // more words for the net: es/pt/ro/lt `neto`, pl, cs/sk, fi
            "neto",
            "total neto",
            "suma neto",
            "kwota netto",
            "základ dph",
            "netto yhteensä",
        ],
    ),
    (
        K::Vat,
        &[
            // nl
            "btw",
            "btw bedrag",
            "totaal btw",
            "bedrag btw",
            // it
            "iva",
            "totale iva",
            "importo iva",
            "totale imposta",
            "di cui iva",
            // es
            "cuota iva",
            "total iva",
            "importe iva",
            // pt
            "valor iva",
            "total do iva",
            // cs
            "dph",
            "dph celkem",
            "výše dph",
            "částka dph",
            "daň z přidané hodnoty",
            // sk
            "suma dph",
            "dph spolu",
            "daň z pridanej hodnoty",
            // lt
            "pvm",
            "pvm suma",
            "iš viso pvm",
            // lv
            "pvn",
            "pvn summa",
            "pvn kopā",
            // et
            "käibemaks",
            "käibemaksu summa",
            "km summa",
            "käibemaks kokku",
            // fi
            "alv",
            "arvonlisävero",
            "alv osuus",
            "alv yhteensä",
            "alv määrä",
            "alv n osuus",
            // sv
            "moms",
            "momsbelopp",
            "summa moms",
            "varav moms",
            "moms totalt",
            // da
            "momsbeløb",
            "heraf moms",
            "moms i alt",
            // hu
            "áfa",
            "adó",
            "adó összesen",
            "adó összege",
            "áfa összesen",
            "áfa összeg",
            "áfa érték",
            "áfa tartalom",
            // ro
            "valoare tva",
            "suma tva",
            "tva colectată",
            // The tax's full name in each language, as invoices print it in words.
            "value added tax",
            "taxe sur la valeur ajoutée",
            "podatek od towarów i usług",
            "податок на додану вартість",
            "налог на добавленную стоимость",
            "belasting over de toegevoegde waarde",
            "imposta sul valore aggiunto",
            "impuesto sobre el valor añadido",
            "imposto sobre o valor acrescentado",
            "pridėtinės vertės mokestis",
            "pievienotās vērtības nodoklis",
            "mervärdesskatt",
            "merværdiafgift",
            "általános forgalmi adó",
            "taxa pe valoarea adăugată",
        ],
    ),
    (
        K::Payable,
        &[
            // nl
            "te betalen",
            "totaal te betalen",
            "te voldoen",
            "openstaand bedrag",
            // it
            "totale da pagare",
            "netto a pagare",
            "da pagare",
            "importo da pagare",
            // es
            "total a pagar",
            "importe a pagar",
            "a pagar",
            // pt
            "valor a pagar",
            // cs
            "k úhradě",
            "celkem k úhradě",
            "k zaplacení",
            "zbývá uhradit",
            // sk
            "k úhrade",
            "celkom k úhrade",
            "suma k úhrade",
            "na úhradu",
            "zostáva uhradiť",
            "zostáva zaplatiť",
            // lt
            "mokėti",
            "iš viso mokėti",
            "mokėtina suma",
            "suma mokėti",
            // lv
            "apmaksai",
            "kopā apmaksai",
            "summa apmaksai",
            "kopā samaksai",
            "samaksai",
            // et
            "tasuda",
            "kokku tasuda",
            "tasumisele kuulub",
            "maksmisele kuulub",
            // fi
            "maksettava",
            "maksettava yhteensä",
            "maksettava määrä",
            // sv
            "att betala",
            "summa att betala",
            "belopp att betala",
            "totalt att betala",
            // da
            "at betale",
            "beløb at betale",
            "i alt at betale",
            "total at betale",
            "til betaling",
            // hu
            "fizetendő",
            "fizetendő összeg",
            "fizetendő végösszeg",
            "összesen fizetendő",
            // ro
            "total de plată",
            "de plată",
            "rest de plată",
        ],
    ),
    (
        K::Subtotal,
        &[
            "subtotaal",
            "subtotale",
            "totale parziale",
            "mezisoučet",
            "medzisúčet",
            "tarpinė suma",
            "starpsumma",
            "vahesumma",
            "välisumma",
            "delsumma",
            "mellemsum",
            "mellomsum",
            "delsum",
            "részösszeg",
            "részösszesen",
        ],
    ),
    (
        K::Discount,
        &[
            "korting",
            "sconto",
            "descuento",
            // `Dto.:  -1.672,51`: Spanish's abbreviation, a totals line's as a column's.
            "dto",
            "desconto",
            "sleva",
            "zľava",
            "nuolaida",
            "atlaide",
            "allahindlus",
            "soodustus",
            "alennus",
            "kedvezmény",
            "engedmény",
            "reducere",
        ],
    ),
    (
        K::Prepaid,
        &[
            "reeds betaald",
            "vooruitbetaald",
            "aanbetaling",
            "acconto",
            "già pagato",
            "anticipo",
            "ya pagado",
            "entregado a cuenta",
            "entregas a cuenta",
            "pagos a cuenta",
            "adiantamento",
            "já pago",
            "záloha",
            "uhrazeno zálohou",
            "odpočet zálohy",
            "zaplaceno",
            "uhradené zálohou",
            "zaplatené",
            "avansas",
            "sumokėta",
            "jau sumokėta",
            "avanss",
            "priekšapmaksa",
            "samaksāts",
            "ettemaks",
            "tasutud",
            "ennakkomaksu",
            "ennakko",
            "maksettu",
            "förskott",
            "redan betalt",
            "forudbetalt",
            "forudbetaling",
            "allerede betalt",
            "előleg",
            "már kifizetve",
            "avans",
            "achitat",
        ],
    ),
    (
        K::CarriedOver,
        &[
            // nl, it, es, pt, cs, fi, hu, lt, lv, da, sv, ro
            "over te brengen",
            "overgebracht",
            "riporto",
            "a riportare",
            "da riportare",
            "suma y sigue",
            "suma anterior",
            "a transportar",
            "transportado",
            "převod z předchozí strany",
            "přenos",
            "prenos z predchádzajúcej strany",
            "prenesené",
            "eelmiselt lehelt",
            "ülekanne",
            "prenos",
            "siirretään",
            "siirto",
            "siirto edelliseltä sivulta",
            "átvitel",
            "áthozat",
            "perkelta",
            "pārnesums",
            "overført",
            "transport fra side",
            "överfört",
            "transport från sida",
            "de reportat",
        ],
    ),
    (
        K::Charges,
        &[
            "verzendkosten",
            "vrachtkosten",
            "toeslag",
            "toeslagen",
            "spese di spedizione",
            "spese di trasporto",
            "maggiorazione",
            "gastos de envío",
            "gastos de transporte",
            "recargo",
            "portes",
            "frete",
            "custos de envio",
            "poštovné",
            "dopravné",
            "příplatek",
            "príplatok",
            "pristatymo mokestis",
            "piegādes maksa",
            "transpordikulu",
            "toimituskulut",
            "rahti",
            "frakt",
            "fraktkostnad",
            "fragt",
            "szállítási díj",
            "felár",
            "taxe de transport",
            "cheltuieli de transport",
        ],
    ),
    (
        K::Rounding,
        &[
            "afronding",
            "afrondingsverschil",
            "arrotondamento",
            "redondeo",
            "arredondamento",
            "zaokrouhlení",
            "zaokrúhlenie",
            "zaokr",
            "zaokrąglenie",
            "округлення",
            "округление",
            "apvalinimas",
            "apvalin",
            "noapaļošana",
            "ümardus",
            "ümardamine",
            "pyöristys",
            "öresavrundning",
            "avrundning",
            "afrunding",
            "øreafrunding",
            "kerekítés",
            "kerekítési különbözet",
            "rotunjire",
            // Rounding differences by their own words.
            "haléřové vyrovnání",
            "haléřové zaokrouhlení",
            "öresutjämning",
            "afrundingsdifference",
            "øreavrunding",
            "pyöristysero",
            "rundungsdifferenz",
            "differenza di arrotondamento",
            "diferencia de redondeo",
            "écart d'arrondi",
            "rounding difference",
        ],
    ),
    (
        K::Cash,
        &[
            "contant",
            "contanten",
            "contanti",
            "contante",
            "pagamento contante",
            "efectivo",
            "tarjeta",
            "entregado",
            "numerário",
            "dinheiro",
            "multibanco",
            "cartão",
            "hotově",
            "hotovost",
            "platba kartou",
            "hotovosť",
            "v hotovosti",
            "grynieji",
            "grynaisiais",
            "mokėta kortele",
            "skaidra nauda",
            "skaidrā naudā",
            "sularaha",
            "pangakaart",
            "käteinen",
            "pankkikortti",
            "maksukortti",
            "kontant",
            "kontanter",
            "kontokort",
            "dankort",
            "készpénz",
            "bankkártya",
            "numerar",
            "grynais",
            "наличными",
            "наличные",
            "готівкою",
        ],
    ),
    (
        K::Change,
        &[
            "wisselgeld",
            "resto",
            "cambio",
            "troco",
            "vráceno",
            "vrátit",
            "vydané",
            "grąža",
            "atlikums",
            "tagastus",
            "vaihtoraha",
            "växel",
            "tillbaka",
            "byttepenge",
            "visszajáró",
            "vrátené",
            "vrátiť",
            "tagasi",
            "takaisin",
            "rest",
            "здача",
        ],
    ),
    (
        K::Date,
        &[
            // nl
            "factuurdatum",
            "datum factuur",
            "bondatum",
            // it
            "data fattura",
            "data documento",
            "data emissione",
            "data di emissione",
            // es
            "fecha",
            "fecha factura",
            "fecha de factura",
            "fecha de emisión",
            "fecha emisión",
            "fecha expedición",
            "fecha de expedición",
            // pt
            "data de emissão",
            "data emissão",
            "data da fatura",
            "data do documento",
            // cs
            "datum vystavení",
            "vystaveno",
            "datum vyhotovení",
            // sk
            "dátum",
            "dátum vyhotovenia",
            "dátum vystavenia",
            "vystavené",
            // lt
            "sąskaitos data",
            "išrašymo data",
            "išrašyta",
            // lv
            "datums",
            "rēķina datums",
            "izrakstīšanas datums",
            "izrakstīts",
            // et
            "kuupäev",
            "arve kuupäev",
            "väljastamise kuupäev",
            // fi
            "päiväys",
            "päivämäärä",
            "laskun päiväys",
            "laskun päivämäärä",
            "laskutuspäivä",
            // sv
            "fakturadatum",
            "utfärdad",
            "utfärdandedatum",
            // da
            "dato",
            "fakturadato",
            "udstedt",
            "udstedelsesdato",
            // hu
            "kelt",
            "kelte",
            "számla kelte",
            "kiállítás dátuma",
            "kiállítás kelte",
            "számla kelte",
            "dátum",
            // ro
            "data emiterii",
            "data facturii",
            "data emitere",
            "data factură",
        ],
    ),
    (
        K::DateWeak,
        &["van", "del", "din", "ze dne", "zo dňa", "dňa"],
    ),
    (
        K::DueDate,
        &[
            // nl
            "vervaldatum",
            "uiterste betaaldatum",
            "te betalen voor",
            "betalen voor",
            // it
            "scadenza",
            "data scadenza",
            "data di scadenza",
            "scadenza pagamento",
            "da pagare entro",
            "pagare entro",
            "pagamento entro",
            "termine di pagamento",
            // es
            "fecha de vencimiento",
            "fecha vencimiento",
            "vencimiento",
            "fecha de pago",
            "fecha límite de pago",
            "pagar antes de",
            // pt
            "data de vencimento",
            "data vencimento",
            "vencimento",
            "data limite",
            "data limite de pagamento",
            "pagar até",
            // cs
            "datum splatnosti",
            "splatnost",
            "splatno",
            "termín splatnosti",
            // sk
            "dátum splatnosti",
            "splatnosť",
            "splatné",
            // lt
            "apmokėti iki",
            "mokėjimo terminas",
            "apmokėjimo terminas",
            "apmokėjimo data",
            "sumokėti iki",
            // lv
            "apmaksas termiņš",
            "samaksas termiņš",
            "apmaksāt līdz",
            "samaksāt līdz",
            // et
            "maksetähtaeg",
            "tähtaeg",
            "maksetähtpäev",
            "tasuda hiljemalt",
            "maksta kuni",
            "tasumise tähtaeg",
            // fi
            "eräpäivä",
            "maksupäivä",
            "maksettava viimeistään",
            "viimeinen maksupäivä",
            // sv
            "förfallodatum",
            "förfallodag",
            "betala senast",
            "att betala senast",
            "sista betalningsdag",
            "förfaller",
            // da
            "forfaldsdato",
            "betalingsfrist",
            "sidste rettidige betalingsdato",
            "betales senest",
            "sidste rettidige betalingsdag",
            "sidste betalingsdag",
            "forfald",
            "forfaldsdag",
            // hu
            "fizetési határidő",
            "esedékesség",
            "fizetési határidő dátuma",
            "határidő",
            // ro
            "data scadenței",
            "scadența",
            "scadent",
            "termen de plată",
            "data scadentă",
        ],
    ),
    (
        K::DeliveryDate,
        &[
            "leverdatum",
            "leveringsdatum",
            "data consegna",
            "data di consegna",
            "fecha de entrega",
            "fecha entrega",
            "data de entrega",
            "datum uskutečnění zdanitelného plnění",
            "datum zdanitelného plnění",
            "duzp",
            "datum dodání",
            "dátum dodania",
            "dátum dodania tovaru",
            "pristatymo data",
            "piegādes datums",
            "tarnekuupäev",
            "tarne kuupäev",
            "toimituspäivä",
            "leveransdatum",
            "leveringsdato",
            "teljesítés dátuma",
            "teljesítés kelte",
            "teljesítés",
            "data livrării",
        ],
    ),
    (
        K::Number,
        &[
            // nl
            "factuurnummer",
            "factuurnr",
            "factuur nr",
            "factuur nummer",
            "nummer factuur",
            "creditnota nr",
            "creditnotanummer",
            "bonnummer",
            "kassabon nr",
            "bonnr",
            "bon nr",
            // it
            "fattura n",
            "fattura nr",
            "fattura numero",
            "numero fattura",
            "n fattura",
            "num fattura",
            "numero documento",
            "documento n",
            "nota di credito n",
            "scontrino n",
            "numero scontrino",
            "ricevuta n",
            // es
            "factura n",
            "factura no",
            "factura número",
            "número de factura",
            "número factura",
            "n factura",
            "no factura",
            "no de factura",
            "num factura",
            "factura simplificada n",
            "factura simplificada no",
            "abono n",
            "recibo n",
            "recibo no",
            "no ticket",
            "n ticket",
            "ticket no",
            "ticket n",
            "número de ticket",
            "número ticket",
            // pt
            "fatura n",
            "fatura no",
            "fatura número",
            "número da fatura",
            "n fatura",
            "no fatura",
            "fatura recibo n",
            "fatura recibo no",
            "fatura simplificada n",
            "fatura simplificada no",
            "nota de crédito n",
            "nota de crédito no",
            "número do documento",
            "talão n",
            "talão no",
            "talão número",
            "número do talão",
            // cs
            "číslo faktury",
            "faktura č",
            "faktura číslo",
            "daňový doklad č",
            "daňový doklad číslo",
            "číslo dokladu",
            "doklad č",
            "doklad číslo",
            "dobropis č",
            "účtenka č",
            "číslo účtenky",
            // sk
            "číslo faktúry",
            "faktúra č",
            "faktúra číslo",
            "pokladničný doklad č",
            "číslo bloku",
            "blok č",
            // lt
            "sąskaitos nr",
            "sąskaitos faktūros nr",
            "sąskaita faktūra nr",
            "pvm sąskaitos faktūros nr",
            "pvm sąskaita faktūra nr",
            "pvm sąskaita faktūra serija",
            "sąskaitos numeris",
            "serija ir nr",
            "kvito nr",
            "čekio nr",
            // lv
            "rēķina nr",
            "rēķins nr",
            "rēķina numurs",
            "čeka nr",
            "kvīts nr",
            "dokumenta nr",
            // et
            "arve nr",
            "arve number",
            "arvenumber",
            "arve nr",
            "tšeki nr",
            "kviitungi nr",
            "dokumendi nr",
            // fi
            "laskun numero",
            "laskunumero",
            "laskunro",
            "lasku nro",
            "laskun nro",
            "lasku nr",
            "kuitti nro",
            "kuitin numero",
            "kuittinumero",
            "hyvityslasku nro",
            // sv
            "fakturanummer",
            "fakturanr",
            "faktura nr",
            "kvittonummer",
            "kvitto nr",
            "kvittonr",
            "kreditfaktura nr",
            // da
            "fakturanummer",
            "kvitteringsnummer",
            "kvittering nr",
            "kreditnota nr",
            "bon nr",
            // hu
            "számla sorszáma",
            "számla sorszám",
            "számla száma",
            "számla szám",
            "sorszám",
            "nyugta sorszáma",
            "nyugtaszám",
            "bizonylatszám",
            "bizonylat sorszáma",
            // ro
            "factura seria",
            "factură seria",
            "factura nr",
            "număr factură",
            "nr factură",
            "seria",
            "bon fiscal nr",
            "nr bon",
            "număr bon",
            "bon nr",
            "chitanța nr",
            "chitanță nr",
        ],
    ),
    (
        K::NumberGeneric,
        &[
            "nro", "numero", "número", "numurs", "numeris", "číslo", "szám",
        ],
    ),
    (
        K::CustomerNumber,
        &[
            "klantnummer",
            "debiteurnummer",
            "klant nr",
            "codice cliente",
            "cod cliente",
            "número de cliente",
            "código cliente",
            "código de cliente",
            "n cliente",
            "no cliente",
            "číslo zákazníka",
            "zákaznické číslo",
            "variabilní symbol",
            "variabilný symbol",
            "konstantní symbol",
            "konštantný symbol",
            "specifický symbol",
            "kliento kodas",
            "kliento nr",
            "klienta nr",
            "klienta kods",
            "kliendi nr",
            "kliendikood",
            "viitenumero",
            "viite",
            "asiakasnumero",
            "asiakasnro",
            "kundnummer",
            "kundnr",
            "ocr",
            "ocr nummer",
            "kundenummer",
            "kundenr",
            "vevőkód",
            "vevő azonosító",
            "cod client",
            "pakbonnummer",
            "ordernummer",
            "bestelnummer",
            "numero ordine",
            "número de pedido",
            "číslo objednávky",
            "užsakymo nr",
            "pasūtījuma nr",
            "tellimuse nr",
            "tilausnumero",
            "ordrenummer",
            "rendelésszám",
            "referentie",
        ],
    ),
    (
        K::Title,
        &[
            // nl
            "factuur",
            "creditnota",
            "creditfactuur",
            "kassabon",
            "pakbon",
            "afleverbon",
            "leveringsbon",
            "vrachtbrief",
            "proces verbaal van oplevering",
            // it
            "fattura",
            "fattura elettronica",
            "fattura accompagnatoria",
            "nota di credito",
            "scontrino",
            "scontrino fiscale",
            "documento commerciale",
            "ricevuta",
            "ricevuta fiscale",
            "documento di trasporto",
            "ddt",
            "bolla di consegna",
            "verbale di collaudo",
            // es
            "factura",
            "factura simplificada",
            "factura rectificativa",
            "abono",
            "recibo",
            "albarán",
            "nota de entrega",
            "acta de recepción",
            "acta de entrega",
            // pt
            "fatura",
            "fatura recibo",
            "fatura simplificada",
            "nota de crédito",
            "talão",
            "guia de remessa",
            "guia de transporte",
            "auto de receção",
            "auto de recepção",
            // cs
            "daňový doklad",
            "faktura daňový doklad",
            "opravný daňový doklad",
            "dobropis",
            "účtenka",
            "pokladní doklad",
            "dodací list",
            "předávací protokol",
            // sk
            "faktúra",
            "pokladničný doklad",
            "preberací protokol",
            "odovzdávací protokol",
            // lt
            "sąskaita faktūra",
            "pvm sąskaita faktūra",
            "kreditinė sąskaita faktūra",
            "kvitas",
            "kasos čekis",
            "važtaraštis",
            "priėmimo perdavimo aktas",
            "atliktų darbų aktas",
            "aktas",
            // lv
            "rēķins",
            "rēķins pavadzīme",
            "kredītrēķins",
            "pavadzīme",
            "preču pavadzīme",
            "kases čeks",
            "kvīts",
            "pieņemšanas nodošanas akts",
            "akts",
            // et
            "arve",
            "kreeditarve",
            "kassatšekk",
            "tšekk",
            "kviitung",
            "saateleht",
            "üleandmise vastuvõtmise akt",
            "akt",
            // fi
            "lasku",
            "hyvityslasku",
            "kuitti",
            "kassakuitti",
            "lähete",
            "rahtikirja",
            "vastaanottotodistus",
            "luovutuspöytäkirja",
            // sv
            "kreditfaktura",
            "kvitto",
            "kassakvitto",
            "följesedel",
            "fraktsedel",
            // da
            "kreditnota",
            "kvittering",
            "følgeseddel",
            "fragtbrev",
            "afleveringsprotokol",
            // hu
            "számla",
            "jóváíró számla",
            "helyesbítő számla",
            "sztornó számla",
            "nyugta",
            "szállítólevél",
            "teljesítési igazolás",
            "átadás átvételi jegyzőkönyv",
            // ro
            "factură",
            "factură fiscală",
            "factură storno",
            "bon fiscal",
            "chitanță",
            "aviz de însoțire",
            "aviz de însoțire a mărfii",
            "proces verbal de recepție",
        ],
    ),
    (
        K::Seller,
        &[
            "afzender",
            "dienstverlener",
            "opdrachtnemer",
            "gefactureerd door",
            "prestatore",
            "emittente",
            "mittente",
            "prestador",
            "remitente",
            "expedidor",
            "facturado por",
            "prestador de serviços",
            "zhotovitel",
            "poskytovatel",
            "odesílatel",
            "zhotoviteľ",
            "poskytovateľ",
            "odosielateľ",
            "paslaugų teikėjas",
            "siuntėjas",
            "rangovas",
            "pakalpojuma sniedzējs",
            "nosūtītājs",
            "izpildītājs",
            "teenuse osutaja",
            "saatja",
            "töövõtja",
            "toimittaja",
            "palveluntarjoaja",
            "lähettäjä",
            "avsändare",
            "utfärdare",
            "afsender",
            "udsteder",
            "szolgáltató",
            "kiállító",
            "feladó",
            "emitent",
            "expeditor",
            "verkoper",
            "leverancier",
            "cedente",
            "cedente prestatore",
            "fornitore",
            "venditore",
            "vendedor",
            "proveedor",
            "emisor",
            "datos del emisor",
            "datos del proveedor",
            "datos del vendedor",
            "fornecedor",
            "emitente",
            "dados do emitente",
            "dados do fornecedor",
            "dati del fornitore",
            "dati del cedente",
            "dodavatel",
            "prodávající",
            "dodávateľ",
            "predávajúci",
            "pardavėjas",
            "tiekėjas",
            "pārdevējs",
            "piegādātājs",
            "müüja",
            "tarnija",
            "väljastaja",
            "arve väljastaja",
            "makse saaja",
            "vystavovatel",
            "shipper",
            "myyjä",
            "laskuttaja",
            "säljare",
            "leverantör",
            "sælger",
            "leverandør",
            "eladó",
            "szállító",
            "számlakibocsátó",
            "furnizor",
            "vânzător",
            "prestator",
        ],
    ),
    (
        K::Buyer,
        &[
            "opdrachtgever",
            "factuur aan",
            "besteller",
            "klantgegevens",
            "spettabile",
            "spett le",
            "intestatario",
            "fatturare a",
            "fatturato a",
            "receptor",
            "datos del cliente",
            // Recipient, as German `Empfänger` (a payment's payee has words of its own).
            "modtager",
            "mottaker",
            "mottagare",
            "vastaanottaja",
            "ontvanger",
            "címzett",
            "destinatário",
            "datos del receptor",
            "datos del comprador",
            "dados do cliente",
            "dados do adquirente",
            "dati del cliente",
            "dati del committente",
            "facturado a",
            "adquiriente",
            "tomador",
            "tomador do serviço",
            "faturado a",
            "faturar a",
            "objednatel",
            "zákazník",
            "objednávateľ",
            "klientas",
            "mokėtojas",
            "klients",
            "pasūtītājs",
            "klient",
            "maksaja",
            "beställare",
            "faktureras till",
            "fakturamottagare",
            "faktureres til",
            "bestiller",
            "ügyfél",
            "destinatar",
            "koper",
            // `Aan:` standing alone over an address block (party labels must stand alone).
            "aan",
            "klant",
            "afnemer",
            "factuuradres",
            "gefactureerd aan",
            "cessionario",
            "cessionario committente",
            "committente",
            "cliente",
            "acquirente",
            "destinatario",
            "comprador",
            "facturar a",
            "adquirente",
            "odběratel",
            "kupující",
            "odberateľ",
            "kupujúci",
            "pirkėjas",
            "gavėjas",
            "užsakovas",
            "pircējs",
            "saņēmējs",
            "maksātājs",
            "ostja",
            "tellija",
            "saaja",
            "arve saaja",
            "kauba saaja",
            "příjemce",
            "príjemca",
            "maksja",
            "ostaja",
            "asiakas",
            "laskutusosoite",
            "tilaaja",
            "köpare",
            "kund",
            "fakturaadress",
            "køber",
            "faktureringsadresse",
            "vevő",
            "megrendelő",
            "vásárló",
            "cumpărător",
            "beneficiar",
        ],
    ),
    (
        K::Consignee,
        &[
            "afleveradres",
            "leveradres",
            "destinazione merce",
            "luogo di consegna",
            "dirección de entrega",
            "lugar de entrega",
            "local de entrega",
            "morada de entrega",
            "dodací adresa",
            "místo dodání",
            "dodacia adresa",
            "miesto dodania",
            "pristatymo adresas",
            "piegādes adrese",
            "tarneaadress",
            "toimitusosoite",
            "leveransadress",
            "leveringsadresse",
            "szállítási cím",
            "adresa de livrare",
            "loc de livrare",
        ],
    ),
    (
        K::Name,
        &[
            "naam",
            "bedrijfsnaam",
            "ragione sociale",
            "denominazione",
            "razón social",
            "denominação social",
            "obchodní jméno",
            "obchodné meno",
            "nosaukums",
            "nimi",
            "namn",
            "navn",
            "cégnév",
            "denumire",
        ],
    ),
    (
        K::Address,
        &[
            "indirizzo",
            "dirección",
            "morada",
            "endereço",
            "adresa",
            "adresas",
            "adrese",
            "aadress",
            "osoite",
            "adress",
            "cím",
            "sídlo",
        ],
    ),
    (
        K::VatId,
        &[
            "btw nummer",
            "btw nr",
            "btw id",
            "btw identificatienummer",
            "btw no",
            // Belgium's enterprise number is its VAT number (`BE` + the same ten digits).
            "ondernemingsnummer",
            "ondernemingsnr",
            "partita iva",
            "p iva",
            "piva",
            "nif iva",
            "número de iva",
            "ič dph",
            "pvm mokėtojo kodas",
            "pvm kodas",
            "pvn reģ nr",
            "pvn maksātāja nr",
            "pvn numurs",
            "pvn reģistrācijas nr",
            "kmkr",
            "kmkr nr",
            "km reg nr",
            "alv nro",
            "alv numero",
            "alv tunnus",
            "momsreg nr",
            "momsregistreringsnummer",
            "moms nr",
            "momsnummer",
            "közösségi adószám",
            "cod tva",
            "cod de tva",
        ],
    ),
    (
        K::TaxId,
        &[
            "codice fiscale",
            "cod fisc",
            "nif",
            "cif",
            "nipc",
            "contribuinte",
            "n contribuinte",
            "no contribuinte",
            "dič",
            "adószám",
            "cod fiscal",
            "cui",
            "c u i",
            "cod unic de înregistrare",
        ],
    ),
    (
        K::RegNo,
        &[
            "kvk",
            "kvk nummer",
            "kvk nr",
            "ič",
            "ičo",
            "įmonės kodas",
            "juridinio asmens kodas",
            "reģ nr",
            "reģistrācijas nr",
            "vienotais reģistrācijas nr",
            "registrikood",
            "reg kood",
            "y tunnus",
            "ytunnus",
            "org nr",
            "organisationsnummer",
            "cvr",
            "cvr nr",
            "cégjegyzékszám",
            "nr reg com",
            "nr ord reg com",
            "reg com",
        ],
    ),
    (
        K::Bank,
        &[
            "banca", "banco", "banka", "bankas", "pank", "pankki", "bancă",
        ],
    ),
    (
        K::Account,
        &[
            "rekeningnummer",
            "rekening",
            "conto corrente",
            "número de cuenta",
            "cuenta",
            "conta",
            "číslo účtu",
            "účet",
            "atsiskaitomoji sąskaita",
            "konts",
            "arveldusarve",
            "tilinumero",
            "bankgiro",
            "plusgiro",
            "kontonummer",
            "számlaszám",
            "bankszámlaszám",
            "bankszámla",
            "cont",
            "cont bancar",
        ],
    ),
    (
        K::Phone,
        &[
            "telefoon",
            "telefono",
            "teléfono",
            "telefone",
            "puhelin",
            "puh",
            "tlf",
            "tālrunis",
            "tālr",
        ],
    ),
    (
        K::Email,
        &[
            "correo",
            "correo electrónico",
            "sähköposti",
            "e pasts",
            "e post",
        ],
    ),
    (
        K::Contract,
        &[
            "contratto",
            "contrato",
            "smlouva",
            "zmluva",
            "sutartis",
            "līgums",
            "leping",
            "sopimus",
            "avtal",
            "kontrakt",
            "szerződés",
        ],
    ),
    (
        K::Order,
        &[
            "bestelling",
            "ordine",
            "pedido",
            "encomenda",
            "objednávka",
            "užsakymas",
            "pasūtījums",
            "tellimus",
            "tilaus",
            "beställning",
            "ordre",
            "bestilling",
            "megrendelés",
            "comanda",
        ],
    ),
    (
        K::Version,
        &[
            "versie", "versione", "versão", "verze", "verzia", "versija", "versioon", "versio",
            "verzió", "versiune",
        ],
    ),
    (
        K::Period,
        &[
            "periode",
            "periodo",
            "período",
            "období",
            "obdobie",
            "laikotarpis",
            "periods",
            "periood",
            "laskutuskausi",
            "időszak",
            "perioada",
        ],
    ),
    (
        K::PaymentTerms,
        &[
            "betalingsvoorwaarden",
            "betaaltermijn",
            "condizioni di pagamento",
            "modalità di pagamento",
            "forma de pago",
            "condiciones de pago",
            "forma de pagamento",
            "condições de pagamento",
            "způsob platby",
            "forma úhrady",
            "spôsob platby",
            "spôsob úhrady",
            "mokėjimo būdas",
            "apmaksas veids",
            "makseviis",
            "maksuehdot",
            "betalningsvillkor",
            "betalingsbetingelser",
            "fizetési mód",
            "fizetés módja",
            "modalitate de plată",
        ],
    ),
    (
        K::Currency,
        &[
            "tipo de cambio",
            "valuta",
            "moneda",
            "moeda",
            "měna",
            "mena",
            "valiuta",
            "valuuta",
            "valuutta",
            "valută",
            "pénznem",
        ],
    ),
    (
        K::Count,
        &[
            "aantal artikelen",
            "numero articoli",
            "počet položek",
            "počet položiek",
            "artiklite arv",
            "antal artiklar",
            "antal varer",
        ],
    ),
    (
        K::ColDesc,
        &[
            "omschrijving",
            "beschrijving",
            "descrizione",
            "descripción",
            "concepto",
            "descrição",
            "designação",
            "popis",
            "označení",
            "položka",
            "pavadinimas",
            "aprašymas",
            "nosaukums",
            "kirjeldus",
            "nimetus",
            "kuvaus",
            "tuote",
            "beskrivning",
            "benämning",
            "beskrivelse",
            "varenavn",
            "megnevezés",
            "termék",
            "denumire",
            "denumirea produselor sau a serviciilor",
        ],
    ),
    (
        K::ColSku,
        &[
            "codice",
            "código",
            "kód",
            "kodas",
            "kods",
            "kood",
            "koodi",
            "cikkszám",
            "cod",
            "tuotenumero",
            "tuotenro",
            "artikelnr",
            "indeks",
            "varenr",
            "varenummer",
        ],
    ),
    (
        K::ColQty,
        &[
            "aantal",
            "hoeveelheid",
            "quantità",
            "qtà",
            "qta",
            // `Q.tà`, `Q.ta`: the abbreviation with its full stop.
            "q tà",
            "q ta",
            "cantidad",
            "cant",
            "quantidade",
            "qtd",
            "množství",
            "počet",
            "množstvo",
            "kiekis",
            "daudzums",
            "kogus",
            "määrä",
            "kpl",
            "antal",
            "mennyiség",
            "menny",
            "cantitate",
        ],
    ),
    (
        K::ColUnit,
        &[
            "eenheid",
            "unità",
            "unidad",
            "unidade",
            "jednotka",
            "mj",
            "vienetas",
            "mato vnt",
            "mērv",
            "mērvienība",
            "ühik",
            "yksikkö",
            "enhet",
            "enhed",
            "mértékegység",
            "um",
            "u m",
        ],
    ),
    (
        K::ColUnitPrice,
        &[
            "prijs",
            "eenheidsprijs",
            "stukprijs",
            "prezzo",
            "prezzo unitario",
            "prezzo unit",
            "precio",
            "precio unitario",
            "precio unit",
            "preço",
            "preço unitário",
            "preço unit",
            "jednotková cena",
            // `Jedn. cena` (cs, sk): the unit's price, not the unit.
            "jedn cena",
            "cena za mj",
            "cena za jednotku",
            "kaina",
            "vieneto kaina",
            "vienības cena",
            "hind",
            "ühiku hind",
            "hinta",
            "yksikköhinta",
            "a hinta",
            "pris",
            "á pris",
            "a pris",
            "enhedspris",
            "egységár",
            "nettó egységár",
            "preț",
            "preț unitar",
            "preț unit",
        ],
    ),
    (
        K::ColDiscount,
        &[
            "korting",
            "korting %",
            "sconto",
            "sconto %",
            "descuento",
            "dto",
            "dto %",
            "desconto",
            "desc %",
            "sleva",
            "sleva %",
            "zľava",
            "zlava",
            "nuolaida",
            "atlaide",
            "allahindlus",
            "alennus",
            "alennus %",
            "kedvezmény",
            "engedmény",
            "reducere",
        ],
    ),
    (
        K::ColVatRate,
        &[
            "btw",
            "btw %",
            "iva",
            "iva %",
            "aliquota iva",
            "aliquota",
            "tipo iva",
            "% iva",
            "taxa iva",
            "dph",
            "dph %",
            "sazba dph",
            "sadzba dph",
            "pvm",
            "pvm %",
            "pvm tarifas",
            "pvn",
            "pvn %",
            "pvn likme",
            "km %",
            "käibemaksu määr",
            "alv",
            "alv %",
            "moms",
            "moms %",
            "momssats",
            "áfa",
            "áfa %",
            "áfakulcs",
            "áfa kulcs",
            "cota tva",
            "cota",
        ],
    ),
    (
        K::ColVatAmount,
        &[
            "btw bedrag",
            "importo iva",
            "cuota iva",
            "valor iva",
            "částka dph",
            "výše dph",
            "suma dph",
            "pvm suma",
            "pvn summa",
            "käibemaksu summa",
            "km summa",
            "alv määrä",
            "momsbelopp",
            "momsbeløb",
            "áfa összeg",
            "áfa érték",
            "valoare tva",
            "valoarea tva",
        ],
    ),
    (
        K::ColAmount,
        &[
            "bedrag",
            "totaal",
            "importo",
            "totale",
            "importe",
            "valor",
            "montante",
            "částka",
            "celkem",
            "cena celkem",
            "suma",
            "spolu",
            "summa",
            "hind kokku",
            "yhteensä",
            "belopp",
            "beløb",
            "érték",
            "nettó érték",
            "összeg",
            "valoare",
            "valoare fără tva",
        ],
    ),
    (
        K::ColAmountGross,
        &[
            "bruttó",
            // es/pt/ro/lt `bruto` beside the net amount's column (`Importe  Bruto`).
            "bruto",
            "bruttó érték",
            "totale ivato",
            "total con iva",
            "valor com iva",
            "celkem s dph",
            "spolu s dph",
            "suma su pvm",
            "summa ar pvn",
            // With the tax as a suffix: `KM-ga` (et), `ÁFÁ-val` / `áfával` (hu).
            "km ga",
            "summa km ga",
            "áfá val",
            "áfával",
        ],
    ),
];

/// A normalised word of a text with its byte range in that text.
#[derive(Debug, Clone, PartialEq)]
pub struct NormWord {
    /// Lower-case word.
    pub text: String,
    /// Byte start in the original text.
    pub start: usize,
    /// Byte end in the original text.
    pub end: usize,
}

/// Splits text into lower-case alphanumeric words (plus `#` and `%` as words of their own).
pub fn norm_words(text: &str) -> Vec<NormWord> {
    let mut out = Vec::new();
    let mut cur: Option<NormWord> = None;
    for (i, c) in text.char_indices() {
        let e = i + c.len_utf8();
        if c.is_alphanumeric() {
            let lc: String = c
                .to_lowercase()
                .map(|c| if c == 'ё' { 'е' } else { c })
                .collect();
            match cur.as_mut() {
                Some(w) => {
                    w.text.push_str(&lc);
                    w.end = e;
                }
                None => {
                    cur = Some(NormWord {
                        text: lc,
                        start: i,
                        end: e,
                    })
                }
            }
        } else {
            if let Some(w) = cur.take() {
                out.push(w);
            }
            if c == '№' {
                out.push(NormWord {
                    text: "no".into(),
                    start: i,
                    end: e,
                });
            } else if c == '#' || c == '%' {
                out.push(NormWord {
                    text: c.to_string(),
                    start: i,
                    end: e,
                });
            }
        }
    }
    if let Some(w) = cur {
        out.push(w);
    }
    // A number word OCR glued to its number after another word (`Tšeki nr047525`): the word,
    // then the number (three digits at least).
    let mut k = 1;
    while k < out.len() {
        let w = &out[k];
        let cut = ["nr", "nro", "no"].into_iter().find_map(|p| {
            let rest = w.text.strip_prefix(p)?;
            (rest.len() >= 3
                && rest.chars().all(|c| c.is_ascii_digit())
                && text
                    .get(w.start..w.start + p.len())
                    .is_some_and(|t| t.is_ascii()))
            .then_some(p.len())
        });
        if let Some(n) = cut {
            let digits = NormWord {
                text: w.text[n..].to_string(),
                start: w.start + n,
                end: w.end,
            };
            out[k].text.truncate(n);
            out[k].end = digits.start;
            out.insert(k + 1, digits);
            k += 1;
        }
        k += 1;
    }
    // OCR readings of `№` and `Nº` (`Ne 123`, `Ме 3204`, `N2 ticket`): the number sign when a
    // number follows (`N2` always: no label word reads so); the Cyrillic readings also as a key
    // before its colon or a column gap (`Рахунок Мо:`, `Мо  Дата`): no uk or ru word reads so;
    // a lone `М` only before its colon.
    for k in 0..out.len() {
        let next_digit = out
            .get(k + 1)
            .is_some_and(|n| n.text.starts_with(|c: char| c.is_ascii_digit()));
        let keyed = || {
            text.get(out[k].end..).is_some_and(|r| {
                r.trim_start_matches('.').trim_start().starts_with(':')
                    || (r.starts_with("  ") && !r.trim().is_empty())
            })
        };
        let sign = match out[k].text.as_str() {
            "n2" => true,
            "ne" | "nè" => next_digit,
            "ме" | "мо" | "nо" => next_digit || keyed(),
            // A lone `М` before a colon (`М:  2020/491`); before a gap it is a unit (`10  м`),
            // with a dot a town (`м. Київ`).
            "м" => text
                .get(out[k].end..)
                .is_some_and(|r| r.trim_start().starts_with(':')),
            _ => false,
        };
        if sign {
            out[k].text = "no".into();
        }
    }
    // The number sign's ordinal read as a word of its own after `n.`: `N.º` printed or read as
    // `N.o` (`N.o documento 2021/121`); `n.º:` read as `n.2:` (or `n.9:`), a lone digit glued
    // to `n.` before a colon, or before a column gap with more text (a header row: `Fatura n.2
    // Data da fatura`), not a value (a number never ends at its key's colon, nor heads a column).
    // Either is one word with `n`, the number sign.
    let mut k = 0;
    while k + 1 < out.len() {
        let (n, d) = (&out[k], &out[k + 1]);
        let ordinal = matches!(d.text.as_str(), "o" | "º") && text.get(n.end..d.start) == Some(".");
        let digit = d.text.len() == 1
            && d.text.starts_with(|c: char| c.is_ascii_digit())
            && text
                .get(n.end..d.start)
                .is_some_and(|g| g == "." || g.is_empty())
            && text.get(d.end..).is_some_and(|r| {
                r.trim_start().starts_with(':') || (r.starts_with("  ") && !r.trim().is_empty())
            });
        // `n.o8/7403`: the ordinal glued to the number after it.
        let glued = ['o', 'º']
            .into_iter()
            .find(|&o| {
                d.text
                    .strip_prefix(o)
                    .is_some_and(|r| r.starts_with(|c: char| c.is_ascii_digit()))
            })
            .filter(|_| text.get(n.end..d.start) == Some("."));
        if n.text == "n" && (ordinal || digit) {
            out[k].text = "no".into();
            out[k].end = out[k + 1].end;
            out.remove(k + 1);
        } else if n.text == "n"
            && let Some(o) = glued
        {
            let end = d.start + o.len_utf8();
            out[k].text = "no".into();
            out[k].end = end;
            out[k + 1].start = out[k].end;
            out[k + 1].text = out[k + 1].text[o.len_utf8()..].to_string();
        }
        k += 1;
    }
    out
}

/// Folds Latin diacritics to their base letters (`á` → `a`, `ł` → `l`, `ß` → `ss`, `º` → `o`),
/// leaving every other character (Cyrillic included) as it is. Labels and month names are
/// compared folded: OCR and hurried typing drop accents, and `Nº`, `N°` and `No` are one word.
pub fn fold_diacritics(s: &str) -> std::borrow::Cow<'_, str> {
    if s.is_ascii() {
        return std::borrow::Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match fold_char(c) {
            Some(f) => out.push_str(f),
            None => out.push(base_letter(c).unwrap_or(c)),
        }
    }
    std::borrow::Cow::Owned(out)
}

/// The Latin letter under any other accent (canonical decomposition: an ASCII letter followed
/// only by combining marks): OCR reads Latvian `reģ` as `reġ`, Esperanto and Maltese letters
/// stand in for the ones a language uses.
fn base_letter(c: char) -> Option<char> {
    use unicode_normalization::UnicodeNormalization;
    use unicode_normalization::char::is_combining_mark;
    if c.is_ascii() {
        return None;
    }
    let mut parts = std::iter::once(c).nfd();
    let base = parts.next().filter(char::is_ascii_alphabetic)?;
    parts.all(is_combining_mark).then_some(base)
}

fn fold_char(c: char) -> Option<&'static str> {
    Some(match c {
        'à' | 'á' | 'â' | 'ã' | 'ä' | 'å' | 'ā' | 'ă' | 'ą' | 'ª' => "a",
        'À' | 'Á' | 'Â' | 'Ã' | 'Ä' | 'Å' | 'Ā' | 'Ă' | 'Ą' => "A",
        'ç' | 'ć' | 'č' => "c",
        'Ç' | 'Ć' | 'Č' => "C",
        'ď' | 'đ' => "d",
        'Ď' | 'Đ' => "D",
        'è' | 'é' | 'ê' | 'ë' | 'ē' | 'ė' | 'ę' | 'ě' => "e",
        'È' | 'É' | 'Ê' | 'Ë' | 'Ē' | 'Ė' | 'Ę' | 'Ě' => "E",
        'ģ' | 'ğ' => "g",
        'Ģ' | 'Ğ' => "G",
        'ì' | 'í' | 'î' | 'ï' | 'ī' | 'į' | 'ı' => "i",
        'Ì' | 'Í' | 'Î' | 'Ï' | 'Ī' | 'Į' | 'İ' => "I",
        'ķ' => "k",
        'Ķ' => "K",
        'ĺ' | 'ľ' | 'ł' | 'ļ' => "l",
        'Ĺ' | 'Ľ' | 'Ł' | 'Ļ' => "L",
        'ñ' | 'ń' | 'ň' | 'ņ' => "n",
        'Ñ' | 'Ń' | 'Ň' | 'Ņ' => "N",
        'ò' | 'ó' | 'ô' | 'õ' | 'ö' | 'ő' | 'ø' | 'ō' | 'º' => "o",
        'Ò' | 'Ó' | 'Ô' | 'Õ' | 'Ö' | 'Ő' | 'Ø' | 'Ō' => "O",
        'ŕ' | 'ř' => "r",
        'Ŕ' | 'Ř' => "R",
        'ś' | 'š' | 'ş' | 'ș' => "s",
        'Ś' | 'Š' | 'Ş' | 'Ș' => "S",
        'ť' | 'ţ' | 'ț' => "t",
        'Ť' | 'Ţ' | 'Ț' => "T",
        'ù' | 'ú' | 'û' | 'ü' | 'ů' | 'ű' | 'ū' | 'ų' => "u",
        'Ù' | 'Ú' | 'Û' | 'Ü' | 'Ů' | 'Ű' | 'Ū' | 'Ų' => "U",
        'ý' | 'ÿ' => "y",
        'Ý' | 'Ÿ' => "Y",
        'ź' | 'ż' | 'ž' => "z",
        'Ź' | 'Ż' | 'Ž' => "Z",
        'ß' => "ss",
        'æ' => "ae",
        'Æ' => "AE",
        'œ' => "oe",
        'Œ' => "OE",
        'þ' => "th",
        'ð' => "d",
        _ => return None,
    })
}

struct Phrase {
    key: LabelKey,
    words: Vec<String>,
    /// Character count of each word.
    word_chars: Vec<usize>,
    chars: usize,
    /// Words at least this long tolerate one OCR edit.
    fuzzy_min: usize,
    /// Each word with OCR's look-alike glyphs made one ([`glyph_fold`]).
    glyph_words: Vec<String>,
}

/// Phrases with lookup by first word: exact first words in a map, and (for the OCR tolerance of
/// long words) the long first words by character count, so a text word is compared only with
/// phrases that can match it.
struct PhraseIndex {
    phrases: Vec<Phrase>,
    by_first: HashMap<String, Vec<usize>>,
    fuzzy_by_len: HashMap<usize, Vec<usize>>,
    /// Phrases by their first word's [`glyph_fold`], for first words of at least
    /// [`GLYPH_MIN_CHARS`] characters.
    by_glyph_first: HashMap<String, Vec<usize>>,
    /// Every word of every phrase: a text word that is one of them is no misspelling of
    /// another (`käibemaksuga`, with VAT, is not `käibemaksuta`, without).
    known: std::collections::HashSet<String>,
    /// The [`glyph_fold`] of every known word of at least [`GLYPH_MIN_CHARS`] characters, and
    /// the known word it stands for (the first in byte order where several fold alike).
    known_glyph: HashMap<String, String>,
    /// Two consecutive words of a phrase written as one (`cenanetto`, `wartoscnetto`), each of
    /// at least [`GLUED_MIN_CHARS`] characters, or every word of a phrase of three or more
    /// written as one of at least [`GLUED_PHRASE_MIN_CHARS`] (`sumabezdph`), and those words.
    glued: HashMap<String, Vec<String>>,
}

static PHRASES: LazyLock<PhraseIndex> = LazyLock::new(|| {
    let mut phrases = Vec::new();
    let tiers = [(VOCAB, FUZZY_MIN_CHARS), (VOCAB_EU, FUZZY_MIN_CHARS_EU)];
    for (key, list, fuzzy_min) in tiers
        .iter()
        .flat_map(|&(v, f)| v.iter().map(move |(k, l)| (k, l, f)))
    {
        for p in *list {
            let words: Vec<String> = norm_words(p)
                .into_iter()
                .map(|w| fold_diacritics(&w.text).into_owned())
                .collect();
            if words.is_empty() {
                continue;
            }
            let word_chars: Vec<usize> = words.iter().map(|w| w.chars().count()).collect();
            let chars = word_chars.iter().sum();
            let glyph_words = words.iter().map(|w| glyph_fold(w)).collect();
            phrases.push(Phrase {
                key: *key,
                words,
                word_chars,
                chars,
                fuzzy_min,
                glyph_words,
            });
        }
    }
    let mut by_first: HashMap<String, Vec<usize>> = HashMap::new();
    let mut fuzzy_by_len: HashMap<usize, Vec<usize>> = HashMap::new();
    let mut by_glyph_first: HashMap<String, Vec<usize>> = HashMap::new();
    for (i, p) in phrases.iter().enumerate() {
        by_first.entry(p.words[0].clone()).or_default().push(i);
        if p.word_chars[0] >= GLYPH_MIN_CHARS {
            by_glyph_first
                .entry(p.glyph_words[0].clone())
                .or_default()
                .push(i);
        }
        if p.word_chars[0] >= p.fuzzy_min {
            fuzzy_by_len.entry(p.word_chars[0]).or_default().push(i);
        }
    }
    let known: std::collections::HashSet<String> = phrases
        .iter()
        .flat_map(|p| p.words.iter().cloned())
        .collect();
    let mut known_glyph: HashMap<String, String> = HashMap::new();
    for w in known
        .iter()
        .filter(|w| w.chars().count() >= GLYPH_MIN_CHARS)
    {
        let e = known_glyph
            .entry(glyph_fold(w))
            .or_insert_with(|| w.clone());
        if w < e {
            e.clone_from(w);
        }
    }
    let mut glued: HashMap<String, Vec<String>> = HashMap::new();
    for p in &phrases {
        for (k, pair) in p.words.windows(2).enumerate() {
            let whole = format!("{}{}", pair[0], pair[1]);
            let long = p.word_chars[k].min(p.word_chars[k + 1]) >= GLUED_MIN_CHARS;
            if long && !known.contains(&whole) {
                glued.entry(whole).or_insert_with(|| pair.to_vec());
            }
        }
        let whole: String = p.words.concat();
        let letters = |w: &String| w.chars().all(char::is_alphabetic);
        if p.words.len() >= 3
            && p.words.iter().all(letters)
            && whole.chars().count() >= GLUED_PHRASE_MIN_CHARS
            && !known.contains(&whole)
        {
            glued.entry(whole).or_insert_with(|| p.words.clone());
        }
    }
    PhraseIndex {
        phrases,
        by_first,
        fuzzy_by_len,
        by_glyph_first,
        known,
        known_glyph,
        glued,
    }
});

/// Each of two label words OCR glued together has at least this many characters: `cena` +
/// `netto`, not `vat` + `no`.
const GLUED_MIN_CHARS: usize = 4;

/// A phrase of three words or more OCR wrote as one word has at least this many characters:
/// `sumabezdph` (`Suma bez DPH`), not `nrdoc`.
const GLUED_PHRASE_MIN_CHARS: usize = 8;

/// A word with the glyphs OCR reads for one another made one: `i`, `l` and `1` as `l`, `0` as
/// `o`, `5` as `s`, `8` as `b` (`Descrlzlone` is `Descrizione`, `ekskI.` is `ekskl.`, `T0tal`
/// is `Total`, `CA5H` is `CASH`). Lower-case, folded words in, as [`find_labels_where`]
/// compares them.
fn glyph_fold(word: &str) -> String {
    word.chars()
        .map(|c| match c {
            'i' | '1' => 'l',
            '0' => 'o',
            '5' => 's',
            '8' => 'b',
            c => c,
        })
        .collect()
}

/// Vocabulary words at least this long match a text word that differs from them only in
/// look-alike glyphs ([`glyph_fold`]), where the text word is long enough or shows OCR's hand
/// ([`glyph_suspect`]).
const GLYPH_MIN_CHARS: usize = 4;

/// A text word of at least this many characters may stand for a vocabulary word it matches only
/// by look-alike glyphs; shorter ones must show OCR's hand ([`glyph_suspect`]): `mall` is no
/// misread `mail`.
const GLYPH_FREE_CHARS: usize = 6;

/// Whether a word as printed shows a glyph OCR misread: an upper-case `I` among lower-case
/// letters (`ekskI`), a digit `0`, `1`, `5` or `8` between letters (`T0tal`, `CA5H`) or ending
/// or starting a word of letters (`TOTA1`, `5ubtotal`), or a lower-case `l` among upper-case
/// ones (`TOTAl`), or a word opening with `ll` (a capital `I` read as `l`: `llość`).
fn glyph_suspect(printed: &str) -> bool {
    let chars: Vec<char> = printed.chars().collect();
    if let ['l', 'l', c, ..] = chars.as_slice()
        && c.is_lowercase()
    {
        return true;
    }
    let look_alike = |c: char| matches!(c, '0' | '1' | '5' | '8');
    // One look-alike digit at either end of at least three letters.
    let letters = |w: &[char]| w.iter().all(|c| c.is_alphabetic());
    if let ([first, rest @ ..], [init @ .., last]) = (chars.as_slice(), chars.as_slice())
        && chars.len() >= 4
        && (look_alike(*first) && letters(rest) || look_alike(*last) && letters(init))
    {
        return true;
    }
    chars.iter().enumerate().any(|(k, &c)| {
        let before = k.checked_sub(1).and_then(|p| chars.get(p)).copied();
        let after = chars.get(k + 1).copied();
        let near =
            |f: fn(&char) -> bool| before.as_ref().is_some_and(f) || after.as_ref().is_some_and(f);
        let letters =
            before.is_some_and(char::is_alphabetic) && after.is_some_and(char::is_alphabetic);
        match c {
            'I' => near(|c| c.is_lowercase()),
            c if look_alike(c) => letters,
            'l' => {
                near(|c| c.is_uppercase())
                    && !before.as_ref().is_some_and(|c| c.is_lowercase())
                    && !after.as_ref().is_some_and(|c| c.is_lowercase())
            }
            _ => false,
        }
    })
}

/// Words at least this long tolerate one OCR edit.
const FUZZY_MIN_CHARS: usize = 7;

/// The same for [`VOCAB_EU`]: its many 7- and 8-letter words are one edit away from everyday
/// words of other languages (`contant` / `contact`, `kundenr` / `Kunden`), so only longer ones
/// tolerate an edit; accents dropped by OCR are handled by folding.
const FUZZY_MIN_CHARS_EU: usize = 9;

/// A label found in a text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct LabelHit {
    /// Key.
    pub key: LabelKey,
    /// Byte start in the text.
    pub start: usize,
    /// Byte end in the text.
    pub end: usize,
    /// Index of the first word.
    pub word: usize,
    /// Number of words.
    pub words: usize,
}

/// Account labels that a language also uses for the invoice's own number (Hungarian `számla`
/// is both the invoice and the account): the value's shape decides.
const INVOICE_OR_ACCOUNT: &[&str] = &["szamlaszam"];

/// The bare word for a reference in each language (no customer's, order's or article's word
/// beside it): the vocabulary files it under the reference it names most often (a customer's,
/// an article's), though a `Key:` of it in a document's head may name the document itself.
const BARE_REFERENCE: &[&str] = &[
    "reference",
    "referentie",
    "referenz",
    "referencia",
    "riferimento",
    "referinta",
];

/// Whether a label's printed phrase is one of [`BARE_REFERENCE`] ([`plain_letters`]).
pub fn names_bare_reference(phrase: &str) -> bool {
    BARE_REFERENCE.contains(&plain_letters(phrase).as_str())
}

/// A phrase lower-cased, diacritics folded, letters only (OCR's `Szämlaszäm` too), for
/// comparing a label's print with a short list.
fn plain_letters(phrase: &str) -> String {
    fold_diacritics(&phrase.to_lowercase())
        .chars()
        .filter(|c| c.is_alphabetic())
        .collect()
}

/// Whether a word (any case, accents folded) is a word of the label vocabulary: `Fecha`,
/// `paragonu`. For labels that OCR glued to a value (`A-5915Fecha factura:`).
pub fn is_vocabulary_word(word: &str) -> bool {
    PHRASES
        .known
        .contains(fold_diacritics(&word.to_lowercase()).as_ref())
}

/// Whether a word (any case, accents folded) is the last word of a money total's label, four
/// letters at least (`érték` of `Bruttó érték`, `Total`): OCR glues such a label to its amount
/// (`Bruttó érték22377646`), and the amount and the label are both still read.
pub fn ends_totals_label(word: &str) -> bool {
    static LAST: LazyLock<std::collections::HashSet<String>> = LazyLock::new(|| {
        PHRASES
            .phrases
            .iter()
            .filter(|p| p.key.is_totals())
            .filter_map(|p| p.words.last())
            .filter(|w| w.chars().count() >= 4 && w.chars().all(char::is_alphabetic))
            .cloned()
            .collect()
    });
    word.chars().count() >= 4 && LAST.contains(fold_diacritics(&word.to_lowercase()).as_ref())
}

/// Whether a text OCR glued to a tax id (`CUI` of `CUIRO17833720`, `KMKRnr` of
/// `KMKRnrEE106070251`) is a tax id label of the vocabulary, its letters compared alone
/// ([`plain_letters`]: `KMKR nr` and `KMKRnr` alike); three letters at least.
pub fn names_tax_id_glued(prefix: &str) -> bool {
    static TAX_ID_LETTERS: LazyLock<std::collections::HashSet<String>> = LazyLock::new(|| {
        VOCAB
            .iter()
            .chain(VOCAB_EU)
            .filter(|(key, _)| key.is_tax_id())
            .flat_map(|(_, list)| list.iter())
            .map(|p| plain_letters(p))
            .filter(|p| p.chars().count() >= 3)
            .collect()
    });
    TAX_ID_LETTERS.contains(&plain_letters(prefix))
}

/// Whether a label's printed phrase is one of [`INVOICE_OR_ACCOUNT`] ([`plain_letters`]).
pub fn names_invoice_or_account(phrase: &str) -> bool {
    INVOICE_OR_ACCOUNT.contains(&plain_letters(phrase).as_str())
}

/// Whether the Levenshtein distance is at most 1 (no allocation: strip the common prefix and
/// suffix, at most one character may remain on each side).
pub(crate) fn within_one_edit(a: &str, b: &str) -> bool {
    let (mut ra, mut rb) = (a, b);
    while let (Some(x), Some(y)) = (ra.chars().next(), rb.chars().next()) {
        if x != y {
            break;
        }
        ra = &ra[x.len_utf8()..];
        rb = &rb[y.len_utf8()..];
    }
    while let (Some(x), Some(y)) = (ra.chars().next_back(), rb.chars().next_back()) {
        if x != y {
            break;
        }
        ra = &ra[..ra.len() - x.len_utf8()];
        rb = &rb[..rb.len() - y.len_utf8()];
    }
    ra.chars().nth(1).is_none() && rb.chars().nth(1).is_none()
}

fn word_matches(
    text: &str,
    text_chars: usize,
    phrase: &str,
    phrase_chars: usize,
    fuzzy_min: usize,
) -> bool {
    text == phrase
        || (phrase_chars >= fuzzy_min
            && text_chars.abs_diff(phrase_chars) <= 1
            && within_one_edit(text, phrase))
}

/// All label matches of a text, left to right, non-overlapping, longest phrase first.
///
/// Where several keys share the same phrase (e.g. `vat` is both a totals label and a column
/// header), all of them are returned for the same range.
///
/// The stages ask for the labels of one line or segment several times (tables, rows, party
/// blocks); the answers of the last [`LABEL_CACHE_ENTRIES`] texts are kept per thread, as
/// matching is a pure function of the text.
pub fn find_labels(text: &str) -> Vec<LabelHit> {
    if let Some(hits) = LABEL_CACHE.with(|c| c.borrow().get(text).cloned()) {
        return hits;
    }
    let mut hits = find_labels_where(text, |_| true);
    apply_modifiers(text, &mut hits);
    tax_qualified_amounts(text, &mut hits);
    LABEL_CACHE.with(|c| {
        let mut c = c.borrow_mut();
        if c.len() >= LABEL_CACHE_ENTRIES {
            c.clear();
        }
        c.insert(text.to_string(), hits.clone());
    });
    hits
}

/// How many texts' labels [`find_labels`] keeps (a few pages' lines and segments).
const LABEL_CACHE_ENTRIES: usize = 4096;

thread_local! {
    static LABEL_CACHE: std::cell::RefCell<HashMap<String, Vec<LabelHit>>> =
        std::cell::RefCell::new(HashMap::new());
}

/// Like [`find_labels`], with only the phrases of keys accepted by `keep`.
pub fn find_labels_where(text: &str, keep: impl Fn(LabelKey) -> bool) -> Vec<LabelHit> {
    let index = &*PHRASES;
    // Hits count words of `norm_words(text)`: `first[j]` is the first of those word `j` holds.
    let (words, first, original) = label_words(text, index);
    // Character counts, 0 for words of the vocabulary (they match exactly or not at all).
    let word_chars: Vec<usize> = words
        .iter()
        .map(|w| {
            if index.known.contains(&w.text) {
                0
            } else {
                w.text.chars().count()
            }
        })
        .collect();
    // Look-alike glyph forms of the words that are no vocabulary word and may be misread ones.
    let glyphs: Vec<Option<String>> = words
        .iter()
        .zip(&word_chars)
        .map(|(w, &n)| glyph_form(text, w, n))
        .collect();
    let mut out = Vec::new();
    let mut candidates: Vec<usize> = Vec::new();
    let mut i = 0;
    while i < words.len() {
        let mut best_len = 0usize;
        let mut best_chars = 0usize;
        let mut keys: Vec<LabelKey> = Vec::new();
        // Phrases that can start here, in vocabulary order (the tie-breaking below depends on it).
        candidates.clear();
        if let Some(list) = index.by_first.get(&words[i].text) {
            candidates.extend_from_slice(list);
        }
        let wc = word_chars[i];
        if wc + 1 >= FUZZY_MIN_CHARS {
            for len in wc.saturating_sub(1)..=wc + 1 {
                if let Some(list) = index.fuzzy_by_len.get(&len) {
                    candidates.extend_from_slice(list);
                }
            }
        }
        if let Some(list) = glyphs[i].as_ref().and_then(|g| index.by_glyph_first.get(g)) {
            candidates.extend_from_slice(list);
        }
        candidates.sort_unstable();
        candidates.dedup();
        for &pi in &candidates {
            let p = &index.phrases[pi];
            if !keep(p.key) {
                continue;
            }
            let n = p.words.len();
            if i + n > words.len() || n < best_len {
                continue;
            }
            // A phrase does not run across a column gap into a cell that starts a label of its
            // own (`Fecha  Vencimiento` of a grid's header row is two labels, not `fecha
            // vencimiento`, the due date); a currency beyond the gap (`TOTAL  RM`) is no label.
            let ok = (0..n).all(|k| {
                (word_matches(
                    &words[i + k].text,
                    word_chars[i + k],
                    &p.words[k],
                    p.word_chars[k],
                    p.fuzzy_min,
                ) || p.word_chars[k] >= GLYPH_MIN_CHARS
                    && (glyphs[i + k].as_ref() == Some(&p.glyph_words[k])
                        || k > 0
                            && word_chars[i + k] > 0
                            && words[i].text == p.words[0]
                            && glyph_fold(&words[i + k].text) == p.glyph_words[k]))
                    && (k == 0
                        || !index.by_first.contains_key(&words[i + k].text)
                        || !text[words[i + k - 1].end..words[i + k].start].contains("  "))
            });
            if !ok {
                continue;
            }
            if n > best_len || (n == best_len && p.chars > best_chars) {
                best_len = n;
                best_chars = p.chars;
                keys.clear();
            }
            if n == best_len && !keys.contains(&p.key) {
                keys.push(p.key);
            }
        }
        if best_len == 0 {
            i += 1;
            continue;
        }
        let (start, end) = (words[i].start, words[i + best_len - 1].end);
        let next_first = first.get(i + best_len).copied().unwrap_or(original);
        for key in keys {
            out.push(LabelHit {
                key,
                start,
                end,
                word: first[i],
                words: (next_first - first[i]).max(1),
            });
        }
        i += best_len;
    }
    out
}

/// The words labels are matched on: [`norm_words`] with diacritics folded, and split ones joined
/// ([`join_split_words`]); per word the index of its first word in `norm_words(text)`, and how
/// many words that has.
fn label_words(text: &str, index: &PhraseIndex) -> (Vec<NormWord>, Vec<usize>, usize) {
    let mut words = norm_words(text);
    for w in &mut words {
        if let std::borrow::Cow::Owned(f) = fold_diacritics(&w.text) {
            w.text = f;
        }
    }
    let original = words.len();
    let (words, of) = split_glued_words(text, words, index);
    let (words, first) = join_split_words(text, words, index);
    let first = first.into_iter().map(|k| of[k]).collect();
    (words, first, original)
}

/// Words OCR glued together that are two consecutive words of a label phrase (`Cenanetto:`,
/// `Wartośćnetto:` for `Cena netto`, `Wartość netto`) split into those two again; a word of the
/// vocabulary stays whole. Per word the index of the word of `words` it comes from.
fn split_glued_words(
    text: &str,
    words: Vec<NormWord>,
    index: &PhraseIndex,
) -> (Vec<NormWord>, Vec<usize>) {
    let mut out: Vec<NormWord> = Vec::with_capacity(words.len());
    let mut of: Vec<usize> = Vec::with_capacity(words.len());
    for (k, w) in words.into_iter().enumerate() {
        // A totals label glued to its amount (`érték22377646`): the label word, then the rest.
        if let Some(printed) = text.get(w.start..w.end)
            && let Some(at) = printed.find(|c: char| c.is_ascii_digit())
            && at > 0
            && printed[..at].chars().all(char::is_alphabetic)
            && ends_totals_label(&printed[..at])
        {
            out.push(NormWord {
                text: fold_diacritics(&printed[..at].to_lowercase()).into_owned(),
                start: w.start,
                end: w.start + at,
            });
            out.push(NormWord {
                text: printed[at..].to_lowercase(),
                start: w.start + at,
                end: w.end,
            });
            of.extend([k, k]);
            continue;
        }
        let pieces = (!index.known.contains(&w.text))
            .then(|| index.glued.get(&w.text))
            .flatten();
        // The bytes in the printed word where each word but the last ends: its folded,
        // lower-cased prefix is those words.
        let cuts = pieces.and_then(|pieces| {
            let printed = text.get(w.start..w.end)?;
            let mut prefix = String::new();
            let mut cuts = Vec::with_capacity(pieces.len());
            for piece in &pieces[..pieces.len() - 1] {
                prefix.push_str(piece);
                let at =
                    printed.char_indices().map(|(i, _)| i).skip(1).find(|&i| {
                        fold_diacritics(&printed[..i].to_lowercase()) == prefix.as_str()
                    })?;
                cuts.push(w.start + at);
            }
            Some(cuts)
        });
        match (pieces, cuts) {
            (Some(pieces), Some(cuts)) => {
                // The words' text: the pieces, the last one what the normalised word holds
                // after the others.
                let head_len: usize = pieces[..pieces.len() - 1].iter().map(String::len).sum();
                let starts = std::iter::once(w.start).chain(cuts.iter().copied());
                let ends = cuts.iter().copied().chain(std::iter::once(w.end));
                for (j, (start, end)) in starts.zip(ends).enumerate() {
                    let text = if j + 1 == pieces.len() {
                        w.text[head_len..].to_string()
                    } else {
                        pieces[j].clone()
                    };
                    out.push(NormWord { text, start, end });
                    of.push(k);
                }
            }
            _ => {
                out.push(w);
                of.push(k);
            }
        }
    }
    (out, of)
}

/// Words OCR split with one space (`T OTAL`, `TOT AL`, `I NCL.`, `CAS H`) made one again where
/// together they are a vocabulary word (exactly or by look-alike glyphs) of at least
/// [`JOIN_MIN_CHARS`] letters and not both pieces are: `net to` stays two words only if
/// both are known words. Returns the words and, per word, the index of its first piece.
fn join_split_words(
    text: &str,
    words: Vec<NormWord>,
    index: &PhraseIndex,
) -> (Vec<NormWord>, Vec<usize>) {
    let mut out: Vec<NormWord> = Vec::with_capacity(words.len());
    let mut first: Vec<usize> = Vec::with_capacity(words.len());
    let letters = |x: &NormWord| {
        x.text.chars().all(char::is_alphanumeric) && x.text.chars().any(char::is_alphabetic)
    };
    // A letter or two before a full stop (`T.V.A.`, `B. T. W.`).
    let initial = |x: &NormWord| {
        (1..=2).contains(&x.text.chars().count())
            && x.text.chars().all(char::is_alphabetic)
            && text.get(x.end..).is_some_and(|t| t.starts_with('.'))
    };
    let mut k = 0;
    while k < words.len() {
        let w = &words[k];
        // Initials with full stops that spell a vocabulary word (`T.V.A.20%`, `I.V.A.`): that
        // word, where its letters name no phrase of their own (`P.U. HT` stays three words).
        if initial(w) {
            let mut m = k + 1;
            while m < words.len()
                && initial(&words[m])
                && matches!(
                    text.get(words[m - 1].end..words[m].start),
                    Some(".") | Some(". ")
                )
            {
                m += 1;
            }
            let joined: String = words[k..m].iter().map(|x| x.text.as_str()).collect();
            let own_phrase = || {
                index.by_first.get(&w.text).is_some_and(|list| {
                    list.iter()
                        .any(|&pi| index.phrases[pi].words.get(1) == Some(&words[k + 1].text))
                })
            };
            if m - k >= 2 && index.known.contains(&joined) && !own_phrase() {
                out.push(NormWord {
                    text: joined,
                    start: w.start,
                    end: words[m - 1].end,
                });
                first.push(k);
                k = m;
                continue;
            }
        }
        if let Some(n) = words.get(k + 1)
            && text.get(w.end..n.start) == Some(" ")
            && letters(w)
            && letters(n)
            && w.text.chars().count() + n.text.chars().count() >= JOIN_MIN_CHARS
            && !(index.known.contains(&w.text) && index.known.contains(&n.text))
        {
            let joined = format!("{}{}", w.text, n.text);
            if index.known.contains(&joined) || index.known_glyph.contains_key(&glyph_fold(&joined))
            {
                out.push(NormWord {
                    text: joined,
                    start: w.start,
                    end: n.end,
                });
                first.push(k);
                k += 2;
                continue;
            }
        }
        out.push(w.clone());
        first.push(k);
        k += 1;
    }
    (out, first)
}

/// The look-alike glyph form ([`glyph_fold`]) of a text word of `chars` characters (0 for a
/// vocabulary word) that may be a misread one: long enough, with a letter, and long enough to
/// be read freely or showing OCR's hand ([`glyph_suspect`]).
fn glyph_form(text: &str, w: &NormWord, chars: usize) -> Option<String> {
    let eligible = chars >= GLYPH_MIN_CHARS
        && w.text.chars().any(char::is_alphabetic)
        && (chars >= GLYPH_FREE_CHARS || text.get(w.start..w.end).is_some_and(glyph_suspect));
    eligible.then(|| glyph_fold(&w.text))
}

/// A text with its label words as OCR garbled them read as the vocabulary words they are: split
/// ones joined (`T OTAL` → `total`) and look-alike glyphs read (`TOTA1` → `total`, `CA5H` →
/// `cash`), by the same rules as [`find_labels`] matches them; a repaired word is written
/// lower-case and diacritics-folded, every other character stays as printed. For readers that
/// look for words in a line's text rather than for label keys.
pub fn repair_label_words(text: &str) -> std::borrow::Cow<'_, str> {
    let index = &*PHRASES;
    let (words, _, _) = label_words(text, index);
    let mut out = String::new();
    let mut at = 0;
    for w in &words {
        // A known word is repaired only where it was joined; any other by its glyphs.
        let repaired = if index.known.contains(&w.text) {
            text[w.start..w.end]
                .contains(' ')
                .then_some(w.text.as_str())
        } else {
            glyph_form(text, w, w.text.chars().count())
                .and_then(|g| index.known_glyph.get(&g))
                .map(String::as_str)
        };
        if let Some(r) = repaired {
            out.push_str(&text[at..w.start]);
            out.push_str(r);
            at = w.end;
        }
    }
    if at == 0 {
        return std::borrow::Cow::Borrowed(text);
    }
    out.push_str(&text[at..]);
    std::borrow::Cow::Owned(out)
}

/// A word OCR split is made one again only when together it has this many characters.
const JOIN_MIN_CHARS: usize = 4;

const INCLUSIVE: &[&str] = &[
    "inclusive",
    "incl",
    "including",
    "inkl",
    "inklusive",
    "inc",
    "with",
    "ttc",
    "brutto",
    "gross",
    "includes",
    // Further languages (folded): incl. / with VAT.
    "inclusief",
    "compreso",
    "compresa",
    "inclusa",
    "incluso",
    "incluido",
    "incluida",
    "com",
    "con",
    "vc",
    "vcetne",
    "vratane",
    "su",
    "ar",
    "koos",
    "sis",
    "med",
    "cu",
    "z",
    "з",
    "із",
    "с",
    "со",
];
const EXCLUSIVE: &[&str] = &[
    "excluding",
    "excl",
    "exclusive",
    "exkl",
    "before",
    "ohne",
    "ht",
    "netto",
    "net",
    "without",
    // Further languages (folded): excl. / without VAT.
    "exclusief",
    "zonder",
    "senza",
    "esclusa",
    "sin",
    "sem",
    "bez",
    "be",
    "ilma",
    "ilman",
    "utan",
    "uden",
    "ekskl",
    "fara",
    "без",
];

/// `Total sales (inclusive of GST)` is a gross total even where `total sales` alone reads as
/// net; `Total (excl. VAT)` is net.
fn apply_modifiers(text: &str, hits: &mut Vec<LabelHit>) {
    const ABSORB: &[&str] = &[
        "of",
        "gst",
        "sst",
        "vat",
        "tax",
        "taxes",
        "mwst",
        "ust",
        "tva",
        "ндс",
        "пдв",
        "rm",
        "eur",
        "%",
        "btw",
        "iva",
        "dph",
        "pvm",
        "pvn",
        "alv",
        "moms",
        "afa",
        "km",
        "kaibemaksuga",
        "kaibemaksuta",
        "kc",
        "czk",
        "huf",
        "ft",
        "ron",
        "lei",
        "pln",
        "sek",
        "dkk",
    ];
    let mut words = norm_words(text);
    for w in &mut words {
        if let std::borrow::Cow::Owned(f) = fold_diacritics(&w.text) {
            w.text = f;
        }
    }
    let mut drop_from: Vec<(usize, usize)> = Vec::new();
    for h in hits.iter_mut() {
        if !matches!(h.key, LabelKey::Total | LabelKey::Net) {
            continue;
        }
        let next = words.get(h.word + h.words).map_or("", |w| w.text.as_str());
        let own_last = (h.words > 1)
            .then(|| words.get(h.word + h.words - 1))
            .flatten()
            .map_or("", |w| w.text.as_str());
        let inclusive = INCLUSIVE.contains(&next);
        let exclusive = EXCLUSIVE.contains(&next);
        if inclusive || exclusive {
            h.key = if inclusive {
                LabelKey::Total
            } else {
                LabelKey::Net
            };
        } else if !INCLUSIVE.contains(&own_last) && !EXCLUSIVE.contains(&own_last) {
            continue;
        }
        // The modifier phrase (`inclusive of GST 6 %`) belongs to this label.
        let mut n = h.words;
        while let Some(w) = words.get(h.word + n) {
            let t = w.text.as_str();
            if INCLUSIVE.contains(&t)
                || EXCLUSIVE.contains(&t)
                || ABSORB.contains(&t)
                || t.chars().all(|c| c.is_ascii_digit())
                    && t.len() <= 2
                    && words.get(h.word + n + 1).is_some_and(|w| w.text == "%")
            {
                n += 1;
            } else {
                break;
            }
        }
        if let Some(last) = words.get(h.word + n - 1) {
            drop_from.push((h.end, last.end));
            h.end = last.end;
            h.words = n;
        }
    }
    hits.retain(|h| !drop_from.iter().any(|&(a, b)| h.start >= a && h.start < b));
}

/// A tax's one word after a word meaning "including" (`Inkl.  moms`, `З ПДВ`, `incl. VAT`)
/// names the amount with that tax, a table's gross column; after one meaning "without" (`bez
/// DPH`, `без ПДВ`), the amount without it. The tax word's own hits (the VAT, a rate column)
/// give way; a longer label over them (`Total incl. VAT`) keeps them.
fn tax_qualified_amounts(text: &str, hits: &mut Vec<LabelHit>) {
    let mut words = norm_words(text);
    for w in &mut words {
        if let std::borrow::Cow::Owned(f) = fold_diacritics(&w.text) {
            w.text = f;
        }
    }
    let mut found: Vec<LabelHit> = Vec::new();
    for h in hits.iter() {
        if h.key != LabelKey::Vat || h.words != 1 || h.word == 0 {
            continue;
        }
        let Some(prev) = words.get(h.word - 1) else {
            continue;
        };
        let covered = hits.iter().any(|o| {
            o.start <= prev.start && o.end > prev.start || o.start < h.start && o.end >= h.end
        });
        let gap = text
            .get(prev.end..h.start)
            .is_some_and(|g| g.contains("  "));
        if covered || gap {
            continue;
        }
        // `s DPH` (cs, sk: with VAT) only before the tax's word: a one-letter modifier does
        // not turn a net total's label into the gross one (`Cena bez DPH  S DPH`).
        let key = if INCLUSIVE.contains(&prev.text.as_str()) || prev.text == "s" {
            LabelKey::ColAmountGross
        } else if EXCLUSIVE.contains(&prev.text.as_str()) {
            LabelKey::ColAmount
        } else {
            continue;
        };
        found.push(LabelHit {
            key,
            start: prev.start,
            end: h.end,
            word: h.word - 1,
            words: 2,
        });
    }
    if found.is_empty() {
        return;
    }
    hits.retain(|h| !found.iter().any(|f| h.start >= f.start && h.end <= f.end));
    hits.extend(found);
    hits.sort_by_key(|h| h.start);
}

/// The column a header's word names though no vocabulary phrase matches it: a one-word column
/// name of at least [`NEAR_COLUMN_MIN_CHARS`] characters one OCR edit away (`Ilośéć` or `tlość`
/// for `Ilość`), where all such names agree on the column. For words printed between a
/// table header's other column names only; a word of the vocabulary is itself and no other.
pub fn near_column_word(word: &str) -> Option<LabelKey> {
    let words = norm_words(word);
    let [w] = words.as_slice() else {
        return None;
    };
    let text = fold_diacritics(&w.text);
    let index = &*PHRASES;
    let chars = text.chars().count();
    if chars < NEAR_COLUMN_MIN_CHARS || index.known.contains(text.as_ref()) {
        return None;
    }
    let mut found: Option<LabelKey> = None;
    for p in &index.phrases {
        if p.words.len() != 1
            || !p.key.is_column()
            || p.word_chars[0] < NEAR_COLUMN_MIN_CHARS
            || p.word_chars[0].abs_diff(chars) > 1
            || !within_one_edit(&text, &p.words[0])
        {
            continue;
        }
        match found {
            Some(k) if k != p.key => return None,
            _ => found = Some(p.key),
        }
    }
    found
}

/// Shortest column name [`near_column_word`] reads through an OCR edit.
const NEAR_COLUMN_MIN_CHARS: usize = 5;

/// Whether the text holds a label of `key`.
pub fn has_label(text: &str, key: LabelKey) -> bool {
    find_labels(text).iter().any(|h| h.key == key)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(text: &str) -> Vec<LabelKey> {
        find_labels(text).into_iter().map(|h| h.key).collect()
    }

    #[test]
    fn normalises_words() {
        let w = norm_words("USt-IdNr.: DE123");
        let t: Vec<&str> = w.iter().map(|w| w.text.as_str()).collect();
        assert_eq!(t, ["ust", "idnr", "de123"]);
        assert_eq!(w[1].start, 4);
        assert_eq!(norm_words("Счёт")[0].text, "счет");
    }

    /// Spanish prints `Dto.` for a discount in the totals as in a column's name, and `Bruto`
    /// beside `Importe` names the gross amount's column.
    #[test]
    fn spanish_discount_abbreviation_and_gross_column() {
        assert!(keys("Dto.:  -1.672,51 CHF").contains(&K::Discount));
        assert!(keys("Dto.:  -1.672,51 CHF").contains(&K::ColDiscount));
        assert!(keys("Descripción  Importe  Bruto").contains(&K::ColAmountGross));
        assert!(keys("Total bruto: 121,00").contains(&K::Total));
    }

    /// OCR drops the space between two words of a label (`Cenanetto:`, `Wartośćnetto:`): the
    /// phrase is found in the glued word, its hit ending where the word ends; two words of no
    /// one phrase glued together stay an unknown word.
    #[test]
    fn labels_whose_words_ocr_glued_together() {
        let hit = find_labels("Cenanetto:  PLN 8955,39")
            .into_iter()
            .find(|h| h.key == K::ColUnitPrice)
            .expect("a price's key");
        assert_eq!((hit.start, hit.end, hit.word, hit.words), (0, 9, 0, 1));
        let t = "Wartośćnetto:  PLN 153592,56";
        let hit = find_labels(t)
            .into_iter()
            .find(|h| h.key == K::ColAmount)
            .expect("an amount's key");
        assert_eq!(&t[hit.start..hit.end], "Wartośćnetto");
        assert!(
            keys("Rabatnetto:  10%").is_empty(),
            "{:?}",
            keys("Rabatnetto:  10%")
        );
        // Every space of a phrase of three words lost (`Total a pagar`): the phrase, over the
        // whole glued word; letters of no phrase stay unknown.
        let spaced = keys("TOTAL A PAGAR: 1.234,56");
        assert!(!spaced.is_empty());
        let t = "TOTALAPAGAR: 1.234,56";
        let hits = find_labels(t);
        assert_eq!(hits.iter().map(|h| h.key).collect::<Vec<_>>(), spaced);
        assert_eq!(&t[hits[0].start..hits[0].end], "TOTALAPAGAR");
        assert!(keys("TOTALAPAGOR: 1.234,56").is_empty());
    }

    /// A phrase never spans a column gap: a grid's header row names one field per cell.
    #[test]
    fn a_phrase_stays_within_its_cell() {
        assert!(keys("Fecha vencimiento: 09/09/2022").contains(&K::DueDate));
        let grid = keys("Número  Fecha  Vencimiento  Rectifica la factura");
        assert!(
            grid.contains(&K::Date) && grid.contains(&K::DueDate),
            "{grid:?}"
        );
        let fecha = find_labels("Número  Fecha  Vencimiento")
            .into_iter()
            .find(|h| h.key == K::Date)
            .map(|h| (h.start, h.end));
        assert_eq!(fecha, Some((9, 14)));
        // A currency in the next cell is still the label's.
        let total = find_labels("TOTAL  RM 42.90");
        assert!(
            total.iter().any(|h| h.key == K::Total && h.end == 9),
            "{total:?}"
        );
    }

    /// OCR reads `i`, `l` and `1` (and `o` and `0`) for one another: a word that differs from a
    /// vocabulary word only there is that word where it is long or shows the misreading.
    #[test]
    fn look_alike_glyphs_match_their_words() {
        assert!(keys("Descrlzlone").contains(&K::ColDesc));
        assert!(keys("Beløb ekskI. moms:").contains(&K::Net));
        assert!(keys("T0TAL  12,00").contains(&K::Total));
        // A short word spelled right is itself: `MALL` is no misread `mail`.
        let mall = keys("JALAN SS2 MALL");
        assert!(mall.is_empty(), "{mall:?}");
        assert!(glyph_suspect("ekskI") && glyph_suspect("T0TAL") && glyph_suspect("TOTAl"));
        assert!(!glyph_suspect("Mall") && !glyph_suspect("MALL") && !glyph_suspect("A10"));
        // A look-alike digit ending or starting a word of letters, and `5` / `8` for `S` / `B`.
        assert!(keys("TOTA1:  23.25").contains(&K::Total));
        assert!(keys("CA5H  50.00").contains(&K::Cash));
        assert!(keys("5UBTOTAL  10.00").contains(&K::Subtotal));
        assert!(glyph_suspect("TOTA1") && glyph_suspect("5UBTOTAL") && glyph_suspect("CA5H"));
        assert!(!glyph_suspect("RM10") && !glyph_suspect("A1") && !glyph_suspect("12AB"));
        // A capital `I` opening a word read as `l`: `Ilość` as `llość`.
        assert!(keys("llość:  2,5").contains(&K::ColQty));
        assert!(keys("llosc  40").contains(&K::ColQty));
        // After a phrase's first word spelled right, a short word by look-alike glyphs too
        // (`Číslo bioku` for `číslo bloku`); alone it stays itself.
        assert!(keys("Číslo bioku 081855").contains(&K::Number));
        assert!(keys("bioku").is_empty());
    }

    /// A word OCR split with one space is one word where together it is a vocabulary word and
    /// its pieces are not both words of their own; hits still count the text's words.
    #[test]
    fn words_split_by_ocr_are_joined() {
        for text in ["T OTAL  23.25", "TOT AL:  23.25", "TOTAL I NCL. GST  23.26"] {
            assert!(keys(text).contains(&K::Total), "{text}: {:?}", keys(text));
        }
        let hits = find_labels("Sub T OTAL  12.00");
        let total = hits
            .iter()
            .find(|h| h.key == K::Subtotal)
            .expect("subtotal");
        assert_eq!((total.word, total.words), (0, 3), "{hits:?}");
        assert_eq!(&"Sub T OTAL  12.00"[total.start..total.end], "Sub T OTAL");
        // Two words of their own stay two (and a wide gap is no split).
        let joined = |t: &str| join_split_words(t, norm_words(t), &PHRASES).0.len();
        assert_eq!(joined("IN VOICE"), 1);
        assert!(PHRASES.known.contains("net") && PHRASES.known.contains("to"));
        assert_eq!(joined("NET TO"), 2);
        assert!(keys("TOT  AL").is_empty(), "{:?}", keys("TOT  AL"));
        assert_eq!(
            repair_label_words("T OTAL (INCL GST):  RM 5.00"),
            "total (INCL GST):  RM 5.00"
        );
        assert_eq!(
            repair_label_words("TOTA1:  CA5H 10.00"),
            "total:  cash 10.00"
        );
        assert_eq!(repair_label_words("Thank you"), "Thank you");
    }

    /// A tax word after "including" names the amount with the tax; after "without", without it.
    #[test]
    fn a_tax_word_qualified_by_including_or_without_names_an_amount() {
        for gross in [
            "Inkl. moms",
            "З ПДВ",
            "incl. VAT",
            "с НДС",
            "cu TVA",
            "S DPH",
            "KM-ga",
            "Summa KM-ga",
            "ÁFÁ-val",
        ] {
            let k = keys(gross);
            assert!(
                k.contains(&K::ColAmountGross) && !k.contains(&K::Vat),
                "{gross}: {k:?}"
            );
        }
        assert!(keys("без ПДВ").contains(&K::ColAmount));
        let k = keys("Cena bez DPH  S DPH");
        assert!(
            k.contains(&K::ColAmountGross) && !k.contains(&K::Total),
            "{k:?}"
        );
        // A rate's VAT stays the VAT; a longer label keeps the tax word.
        assert!(keys("Momsbeløb 25%").contains(&K::Vat));
        assert!(keys("Total incl. VAT").contains(&K::Total));
        // Across a column gap the words are two cells' (`Inkl.` over another column).
        assert!(keys("Inkl.  moms").contains(&K::Vat));
    }

    /// A header word one OCR edit from a one-word column name names that column.
    #[test]
    fn a_column_word_misread_by_one_letter() {
        assert_eq!(near_column_word("Ilośéć"), Some(K::ColQty));
        assert_eq!(near_column_word("tlość"), Some(K::ColQty));
        // Known words are themselves; short ones are not guessed.
        assert_eq!(near_column_word("Ilość"), None);
        assert_eq!(near_column_word("Ceno"), None);
    }

    #[test]
    fn matches_multilingual_labels() {
        assert!(keys("Rechnungsnummer: 4711").contains(&K::Number));
        assert!(keys("N° de facture : F-12").contains(&K::Number));
        assert!(keys("Nr faktury 12/2024").contains(&K::Number));
        assert!(keys("Рахунок № 15").contains(&K::Number));
        assert!(keys("Счёт № 7").contains(&K::Number));
        assert!(keys("Udstedt: 09-01-2020").contains(&K::Date));
        // A document's or voucher's number by its generic noun, glued or not.
        for label in [
            "Dokumentnr.: 61859",
            "Bilagsnr. R-12",
            "Documentnummer 7",
            "Belegnr. 4",
        ] {
            assert!(keys(label).contains(&K::Number), "{label}");
        }
        assert!(keys("USt-IdNr.: DE123456789").contains(&K::VatId));
        assert!(keys("ЄДРПОУ 12345678").contains(&K::Edrpou));
        assert!(keys("ИНН/КПП 7707083893/773601001").contains(&K::Inn));
        assert!(keys("ИНН/КПП 7707083893/773601001").contains(&K::Kpp));
        assert!(keys("Sprzedawca:").contains(&K::Seller));
        assert!(keys("Qté  P.U. HT  TVA%").contains(&K::ColUnitPrice));
        assert!(keys("Qté  P.U.HT  Montant HT").contains(&K::ColUnitPrice));
        assert!(keys("Покупець").contains(&K::Buyer));
        assert!(keys("Zahlbar bis 12.03.2024").contains(&K::DueDate));
        assert!(keys("Fälligkeitsdatum").contains(&K::DueDate));
    }

    #[test]
    fn longest_phrase_wins() {
        assert_eq!(keys("Total excl. VAT 100.00"), vec![K::Net]);
        assert_eq!(keys("Grand Total 5.00"), vec![K::Total]);
        let t = keys("Subtotal 5");
        assert_eq!(t, vec![K::Subtotal]);
        assert_eq!(keys("TOTAL SALES (INCLUSIVE OF GST) :"), vec![K::Total]);
        assert_eq!(keys("Total incl. 6% GST 12.00"), vec![K::Total]);
        assert_eq!(keys("Total sales (incl. SST)")[0], K::Total);
        assert_eq!(keys("Total (excl. VAT)")[0], K::Net);
        assert_eq!(keys("TOTAL QTY: 4"), vec![K::Count]);
        assert_eq!(keys("Total HT 1 779,30 EUR")[0], K::Net);
        assert_eq!(keys("Base HT :  EUR 126640,75")[0], K::Net);
        assert_eq!(keys("Laskunro:  2022/252")[0], K::Number);
        // The amount's first digit group is not part of the label.
        let h = find_labels("Total TTC 2 135,16 EUR");
        assert!(h.iter().all(|h| h.end <= "Total TTC ".len()), "{h:?}");
        let h = find_labels("Total incl. 6 % GST 12.00");
        assert!(
            h.iter()
                .any(|h| h.key == K::Total && h.end >= "Total incl. 6 % GST".len())
        );
        assert_eq!(keys("Total TTC 2 135,16 EUR")[0], K::Total);
        assert_eq!(keys("Razem netto 2 002,00 PLN")[0], K::Net);
    }

    #[test]
    fn tolerates_one_ocr_edit_in_long_words() {
        assert!(keys("Rechnungsnumer 12").contains(&K::Number));
        assert!(keys("Zwischensunme").contains(&K::Subtotal));
        // da, no, sv, fi, et, cs.
        for sub in [
            "Mellemsum",
            "Mellomsum",
            "Delsumma",
            "Välisumma",
            "Vahesumma",
            "Mezisoučet",
        ] {
            assert!(keys(sub).contains(&K::Subtotal), "{sub}");
        }
        // Short words need exact matches (no edit; look-alike glyphs are no edit).
        assert!(!keys("totl").contains(&K::Total));
        assert!(!keys("tptal").contains(&K::Total));
    }

    #[test]
    fn column_headers() {
        let k = keys("Pos  Beschreibung  Menge  Einheit  Einzelpreis  Betrag");
        for want in [
            K::ColPos,
            K::ColDesc,
            K::ColQty,
            K::ColUnit,
            K::ColUnitPrice,
            K::ColAmount,
        ] {
            assert!(k.contains(&want), "{want:?} in {k:?}");
        }
        let k = keys("Art.-Nr.  Bezeichnung  Menge  Einzelpreis  Rabatt %  MwSt  Betrag");
        assert!(k.contains(&K::ColDiscount), "{k:?}");
        let k = keys("Descrizione  Quantità  Prezzo  Sconto %  IVA  Importo");
        assert!(k.contains(&K::ColDiscount), "{k:?}");
        // A totals label glued to its amount.
        assert_eq!(keys("Gesamtbetrag12345,67 EUR").first(), Some(&K::Total));
        assert_eq!(keys("Zahlbetrag12345,67 EUR").first(), Some(&K::Payable));
        // Initials with full stops spell the vocabulary word, glued to the rate or not; letters
        // that start a phrase of their own stay words (`P.U. HT`, the unit price).
        for printed in [
            "T.V.A.20%  7,89 EUR",
            "I.V.A. 21 %  8,40",
            "B.T.W. 21%  4,20",
        ] {
            assert_eq!(keys(printed).first(), Some(&K::Vat), "{printed}");
        }
        assert!(keys("Désignation  Qté  P.U. HT  Montant").contains(&K::ColUnitPrice));
        assert!(keys("Désignation  Qté  P.U.HT  Montant").contains(&K::ColUnitPrice));
        // The abbreviation with its full stop reads as two words.
        for printed in [
            "#  Descrizione  Q.tà  IVA %  Lordo",
            "Descrizione  Q.ta  Prezzo",
        ] {
            assert!(keys(printed).contains(&K::ColQty), "{printed}");
        }
        // `unit.` abbreviating the unit price's second word is no unit column.
        for printed in [
            "Descrizione  Prezzo unit.",
            "Descripción  Precio unit.",
            "Descrição  Preço unit.",
            "Désignation  Prix unit. HT",
            "Denumire  Preț unit.",
        ] {
            let k = keys(printed);
            assert!(
                k.contains(&K::ColUnitPrice) && !k.contains(&K::ColUnit),
                "{printed}: {k:?}"
            );
        }
        assert!(LabelKey::ColQty.is_column());
        assert!(!LabelKey::Total.is_column());
    }

    #[test]
    fn european_vocabulary() {
        // (language, printed label, key it announces): real wording of invoices, receipts,
        // acts and delivery notes, with and without diacritics.
        let cases: &[(&str, &str, LabelKey)] = &[
            ("nl", "Factuurnummer: 2024-001", K::Number),
            ("nl", "Factuurdatum", K::Date),
            ("nl", "Vervaldatum", K::DueDate),
            ("nl", "Totaal excl. btw", K::Net),
            ("nl", "BTW 21%", K::Vat),
            ("nl", "Te betalen", K::Payable),
            ("nl", "BTW-nummer NL123456789B01", K::VatId),
            ("it", "Fattura n. 12/2024", K::Number),
            ("it", "Imponibile", K::Net),
            ("it", "IVA 22%", K::Vat),
            ("it", "Totale documento", K::Total),
            ("it", "P.IVA 01234567890", K::VatId),
            ("it", "di cui IVA 1,23", K::Vat),
            ("es", "Nº Factura: A-123", K::Number),
            ("es", "Fecha de emisión", K::Date),
            ("es", "Base imponible", K::Net),
            ("es", "Total a pagar", K::Payable),
            ("es", "Entregado a cuenta", K::Prepaid),
            ("sk", "Zostáva uhradiť", K::Payable),
            ("da", "Til betaling", K::Payable),
            ("da", "Slutbeløb", K::Total),
            ("da", "Fakturabeløb: 272.113,50 DKK", K::Total),
            ("et", "Arve väljastaja:", K::Seller),
            ("et", "Saaja:", K::Buyer),
            ("et", "Makse saaja:", K::Seller),
            ("cs", "Příjemce:", K::Buyer),
            ("sv", "Fakturabelopp", K::Total),
            ("nl", "Factuurbedrag", K::Total),
            ("it", "Importo fattura", K::Total),
            ("ro", "Valoare factură", K::Total),
            ("lt", "Sąskaitos suma", K::Total),
            ("fi", "Ennakko", K::Prepaid),
            ("es", "Total sin IVA", K::Net),
            ("pt", "Fatura nº FT 2024/15", K::Number),
            ("pt", "Data de emissão", K::Date),
            ("pt", "Data de vencimento", K::DueDate),
            ("pt", "Total com IVA", K::Total),
            ("cs", "Číslo faktury", K::Number),
            ("cs", "Cislo faktury", K::Number),
            ("cs", "Datum vystavení", K::Date),
            ("cs", "Datum splatnosti", K::DueDate),
            ("cs", "Základ daně", K::Net),
            ("cs", "Celkem k úhradě", K::Payable),
            ("cs", "DIČ: CZ12345678", K::TaxId),
            ("sk", "Faktúra č. 2024001", K::Number),
            ("sk", "Dátum vyhotovenia", K::Date),
            ("sk", "Spolu s DPH", K::Total),
            ("sk", "IČ DPH SK2020123456", K::VatId),
            ("lt", "Sąskaitos faktūros Nr.", K::Number),
            ("lt", "Suma be PVM", K::Net),
            ("lt", "PVM suma", K::Vat),
            ("lt", "Iš viso su PVM", K::Total),
            ("lt", "Bendra vertė:", K::Total),
            ("lt", "Apmokestinamoji vertė:", K::Net),
            ("lt", "Apvalin.:", K::Rounding),
            ("hu", "Adó 27%", K::Vat),
            ("hu", "Adóalap:", K::Net),
            ("lv", "Rēķina Nr.", K::Number),
            ("lv", "Summa apmaksai", K::Payable),
            ("lv", "PVN 21%", K::Vat),
            ("lv", "Pievienotās vērtības nodoklis 21%", K::Vat),
            ("lt", "Pridėtinės vertės mokestis", K::Vat),
            ("uk", "Податок на додану вартість 20%", K::Vat),
            ("ru", "Налог на добавленную стоимость", K::Vat),
            ("ro", "Taxa pe valoarea adăugată 19%", K::Vat),
            ("hu", "Általános forgalmi adó", K::Vat),
            ("en", "Value added tax 20%", K::Vat),
            ("fr", "Taxe sur la valeur ajoutée", K::Vat),
            ("sv", "Mervärdesskatt", K::Vat),
            ("da", "Merværdiafgift", K::Vat),
            ("pl", "Podatek od towarów i usług", K::Vat),
            ("et", "Arve nr", K::Number),
            ("et", "Kuupäev", K::Date),
            ("et", "Maksetähtaeg", K::DueDate),
            ("et", "Summa käibemaksuta", K::Net),
            ("et", "Käibemaks 22%", K::Vat),
            ("fi", "Laskun numero", K::Number),
            ("fi", "Eräpäivä", K::DueDate),
            ("fi", "Erapaiva", K::DueDate),
            ("fi", "ALV 24%", K::Vat),
            ("fi", "Yhteensä", K::Total),
            ("fi", "Viitenumero", K::CustomerNumber),
            ("sv", "Fakturanummer", K::Number),
            ("sv", "Förfallodatum", K::DueDate),
            ("sv", "Moms 25%", K::Vat),
            ("sv", "Att betala", K::Payable),
            ("da", "Fakturadato", K::Date),
            ("da", "Moms i alt", K::Vat),
            ("da", "I alt", K::Total),
            ("da", "CVR-nr. 12345678", K::RegNo),
            ("da", "SE-nr. 12345678", K::VatId),
            ("da", "Vedrørende faktura", K::Corrects),
            ("de", "UID-Nr. ATU12345678", K::VatId),
            ("sv", "VAT-nr SE123456789001", K::VatId),
            ("sv", "Avser faktura", K::Corrects),
            ("es", "Rectifica la factura", K::Corrects),
            ("ro", "Rest", K::Change),
            ("ro", "Rest de plată", K::Payable),
            ("fi", "Takaisin", K::Change),
            ("et", "Tagasi", K::Change),
            ("sk", "Vrátené", K::Change),
            ("lt", "Grynais", K::Cash),
            ("ru", "Наличными", K::Cash),
            ("hu", "Számla sorszáma", K::Number),
            ("hu", "Kelt", K::Date),
            ("hu", "Teljesítés dátuma", K::DeliveryDate),
            ("hu", "Nettó", K::Net),
            ("hu", "ÁFA", K::Vat),
            ("hu", "Bruttó", K::Total),
            ("hu", "Fizetendő", K::Payable),
            ("hu", "Bankszámlaszám", K::Account),
            ("ro", "Factura seria", K::Number),
            ("ro", "Data emiterii", K::Date),
            ("ro", "Total de plată", K::Payable),
            ("ro", "Total de plata", K::Payable),
            ("ro", "TVA", K::Vat),
            ("ro", "Furnizor", K::Seller),
            ("ro", "Cumpărător", K::Buyer),
            // The date a payment is due, in the words of each country's invoices.
            ("pt", "Data limite: 10/04/2022", K::DueDate),
            ("cs", "Termín splatnosti: 10. 11. 2021", K::DueDate),
            ("fi", "Maksettava viimeistään: 16.02.2022", K::DueDate),
            ("ru", "Оплата до: 23.10.2024", K::DueDate),
            ("it", "Da pagare entro", K::DueDate),
            ("it", "Pagamento entro", K::DueDate),
            ("da", "Sidste rettidige betalingsdag", K::DueDate),
            ("da", "Forfald:", K::DueDate),
            ("et", "Maksta kuni: 25.11.2026", K::DueDate),
            ("es", "Fecha de pago: 24/07/2019", K::DueDate),
            ("sv", "Sista betalningsdag", K::DueDate),
            ("lt", "Sumokėti iki", K::DueDate),
            ("pl", "Płatne do: 12.03.2024", K::DueDate),
            ("en", "Payment deadline: 12/03/2024", K::DueDate),
        ];
        for &(lang, text, want) in cases {
            let k = keys(text);
            assert!(k.first() == Some(&want), "{lang}: {text} -> {k:?}");
        }
        // Document-level charges and allowances (EN 16931 BT-108 / BT-107) and advance
        // payments, as the totals blocks print them.
        let adjustments: &[(&str, &str, LabelKey)] = &[
            ("de", "Gesamtbetrag der Zuschläge 5,80", K::Charges),
            ("de", "Gesamtbetrag der Abschläge -9,07", K::Discount),
            ("de", "Versandkosten 4,90", K::Charges),
            ("de", "Erhaltene Anzahlungen -50,00", K::Prepaid),
            ("en", "Shipping and handling 7.00", K::Charges),
            ("en", "Total allowances 3.00", K::Discount),
            ("fr", "Frais de port 6,00", K::Charges),
            ("fr", "Total des remises 2,00", K::Discount),
            ("pl", "Koszty wysyłki 15,00", K::Charges),
            ("nl", "Verzendkosten 6,95", K::Charges),
            ("it", "Spese di spedizione 9,00", K::Charges),
            ("es", "Gastos de envío 4,50", K::Charges),
            ("pt", "Portes 3,00", K::Charges),
            ("cs", "Poštovné 99,00", K::Charges),
            ("sk", "Príplatok 2,00", K::Charges),
            ("lt", "Pristatymo mokestis 3,00", K::Charges),
            ("lv", "Piegādes maksa 3,00", K::Charges),
            ("et", "Transpordikulu 5,00", K::Charges),
            ("fi", "Toimituskulut 5,90", K::Charges),
            ("sv", "Frakt 49,00", K::Charges),
            ("da", "Fragt 39,00", K::Charges),
            ("hu", "Szállítási díj 990", K::Charges),
            ("ro", "Cheltuieli de transport 20,00", K::Charges),
            ("uk", "Вартість доставки 100,00", K::Charges),
            ("ru", "Стоимость доставки 100,00", K::Charges),
        ];
        for &(lang, text, want) in adjustments {
            let k = keys(text);
            assert!(k.first() == Some(&want), "{lang}: {text} -> {k:?}");
        }
        // A shipping address is no charge.
        assert!(!keys("Ship to: Kunde AG").contains(&K::Charges));
        // Subtotals carried from page to page.
        let carried: &[(&str, &str)] = &[
            ("en", "Carried forward 1,250.00"),
            ("de", "Übertrag 1.250,00"),
            ("fr", "À reporter 1 250,00"),
            ("pl", "Do przeniesienia 1250,00"),
            ("uk", "Перенесено 1250,00"),
            ("ru", "Перенесено со стр. 1 1250,00"),
            ("nl", "Over te brengen 1.250,00"),
            ("it", "A riportare 1.250,00"),
            ("es", "Suma y sigue 1.250,00"),
            ("pt", "A transportar 1250,00"),
            ("cs", "Převod z předchozí strany 1 250,00"),
            ("sk", "Prenos z predchádzajúcej strany 1 250,00"),
            ("et", "Eelmiselt lehelt 1250,00"),
            ("et", "Ülekanne lk 1250,00"),
            ("sk", "Prenos zo strany 1 250,00"),
            ("fi", "Siirto 1 250,00"),
            ("fi", "Siirto edelliseltä sivulta 1 250,00"),
            ("hu", "Átvitel 1.250"),
            ("lt", "Perkelta 1250,00"),
            ("lv", "Pārnesums 1250,00"),
            ("da", "Overført 1.250,00"),
            ("da", "Transport fra side 1.250,00"),
            ("sv", "Överfört 1 250,00"),
            ("ro", "De reportat 1.250,00"),
        ];
        for &(lang, text) in carried {
            let k = keys(text);
            assert!(
                k.first() == Some(&K::CarriedOver),
                "{lang}: {text} -> {k:?}"
            );
        }
        // Modifiers in other languages turn a total into a net total and back.
        assert_eq!(keys("Totaal excl BTW 100,00")[0], K::Net);
        assert_eq!(keys("Totale senza IVA 100,00")[0], K::Net);
        assert_eq!(keys("Kopā bez PVN 100,00")[0], K::Net);
        assert_eq!(keys("Totalt inkl. moms 125,00")[0], K::Total);
        // Payment references and bank accounts are not document numbers.
        assert!(!keys("Variabilní symbol 2024001").contains(&K::Number));
        assert!(!keys("Számlaszám: 11773016-11111018").contains(&K::Number));
        // `Tipo de cambio` is an exchange rate, not change given back.
        assert!(!keys("Tipo de cambio 1,0823").contains(&K::Change));
        // Everyday words one edit away from a new label are not that label; a label word is
        // no misspelling of another.
        assert!(!keys("Sales Contact").contains(&K::Cash));
        assert!(keys("Kunden AG Mitte").is_empty());
        assert!(!keys("Summa käibemaksuga").contains(&K::Net));
        assert!(keys("Rechnungsnumer 12").contains(&K::Number));
    }

    #[test]
    fn party_labels_in_many_languages() {
        // Who issues and who receives, in the words invoices, acts and waybills use for them.
        let sellers = [
            "Bill from:",
            "Service provider",
            "Contractor:",
            "Remit to:",
            "Rechnung von:",
            "Dienstleister",
            "Facturé par :",
            "Expéditeur",
            "Sprzedający:",
            "Zleceniobiorca",
            "Підрядник:",
            "Грузоотправитель:",
            "Opdrachtnemer:",
            "Prestatore",
            "Facturado por:",
            "Prestador de serviços:",
            "Zhotovitel:",
            "Poskytovateľ:",
            "Paslaugų teikėjas:",
            "Pakalpojuma sniedzējs:",
            "Teenuse osutaja:",
            "Palveluntarjoaja:",
            "Avsändare:",
            "Udsteder:",
            "Szolgáltató:",
            "Emitent:",
            "Datos del emisor:",
            "Dados do fornecedor:",
            "Dati del fornitore",
        ];
        for text in sellers {
            assert_eq!(keys(text).first(), Some(&K::Seller), "{text}");
        }
        let buyers = [
            "Recipient:",
            "Billing address",
            "Guest name: John Smith",
            "Payer:",
            "Rechnung an:",
            "Besteller:",
            "Adresse de facturation",
            "Donneur d'ordre :",
            "Zamawiający:",
            "Клієнт:",
            "Opdrachtgever:",
            "Spett.le",
            "Datos del cliente",
            "Datos del receptor:",
            "Modtager:",
            "Mottagare:",
            "Vastaanottaja:",
            "Dados do cliente:",
            "Dati del committente",
            "Tomador do serviço:",
            "Objednatel:",
            "Objednávateľ:",
            "Klientas:",
            "Pasūtītājs:",
            "Beställare:",
            "Faktureres til:",
            "Ügyfél:",
            "Destinatar:",
        ];
        for text in buyers {
            assert_eq!(keys(text).first(), Some(&K::Buyer), "{text}");
        }
        // A longer known phrase keeps its meaning.
        assert_eq!(
            keys("Customer number: 4711").first(),
            Some(&K::CustomerNumber)
        );
        assert_eq!(keys("Lieferadresse").first(), Some(&K::Consignee));
    }

    #[test]
    fn rounding_differences_by_their_own_words() {
        for text in [
            "Haléřové vyrovnání:  0,31",
            "Kerekítési különbözet:  -2",
            "Öresutjämning  0,40",
            "Afrundingsdifference  0,25",
            "Pyöristysero  0,02",
            "Rundungsdifferenz  0,01",
            "Differenza di arrotondamento  0,02",
            "Diferencia de redondeo  0,01",
            "Écart d'arrondi  0,03",
            "Rounding difference  0.02",
        ] {
            assert_eq!(keys(text).first(), Some(&K::Rounding), "{text}");
        }
    }

    #[test]
    fn a_documents_number_by_the_generic_noun() {
        // `N.º` printed or extracted as `N.o`, and the noun `document` with a number sign.
        for text in [
            "N.º documento 2021/121",
            "N.o documento 2021/121",
            "Fatura original N.o documento 2021/121, Data de emissão: 09/09/2021",
            "Документ № 4700",
            "Документ Ме:  4700",
            "Номер документа:  25064995",
            "Número de documento: 12",
        ] {
            assert!(
                find_labels(text).iter().any(|h| h.key == K::Number),
                "{text}: {:?}",
                find_labels(text)
            );
        }
    }

    #[test]
    fn receipt_numbers_in_twenty_languages() {
        // Till slips name their number in their own words, often glued (`Bonnr.`).
        for label in [
            "Receipt No. 12",
            "Beleg-Nr. 12",
            "Ticket n° 12",
            "Nr paragonu 12",
            "Чек № 12",
            "Bonnr. 12",
            "Scontrino n. 12",
            "Nº ticket 12",
            "Talão n.º 12",
            "Talão n.o8/7403",
            "Tšeki nr047525",
            "Účtenka č. 12",
            "Číslo bloku 12",
            "Kvito Nr. 12",
            "Čeka Nr. 12",
            "Tšeki nr 12",
            "Kuitti nro 12",
            "Kvittonr 12",
            "Bon nr. 12",
            "Nyugtaszám 12",
            "Nr. bon 12",
        ] {
            let hits = find_labels(label);
            assert_eq!(
                hits.first().map(|h| (h.key, h.word)),
                Some((K::Number, 0)),
                "{label}: {hits:?}"
            );
        }
        // OCR readings of the number sign.
        for label in [
            "Чек Ме 3204",
            "Рахунок Ne 15",
            "N2 ticket 7/6712",
            "Fatura n.2: 86949",
            "Fatura n.2  Data da fatura",
            "Рахунок Мо:  Дата:",
        ] {
            assert!(
                find_labels(label).iter().any(|h| h.key == K::Number),
                "{label}: {:?}",
                find_labels(label)
            );
        }
        // A column header `№` read as `Мо`: the generic number key.
        assert!(
            find_labels("Мо  Дата  До рахунку")
                .iter()
                .any(|h| h.key == K::NumberGeneric && h.start == 0)
        );
        // A lone `М` is the sign before its colon only.
        assert!(
            find_labels("М:  2020/491")
                .iter()
                .any(|h| matches!(h.key, K::Number | K::NumberGeneric) && h.start == 0)
        );
        for text in ["Кабель  10  м  25,00", "м. Київ, вул. Шевченка 5"] {
            assert!(
                find_labels(text)
                    .iter()
                    .all(|h| !matches!(h.key, K::Number | K::NumberGeneric)),
                "{text}"
            );
        }
        assert!(
            find_labels("Мо лоджія")
                .iter()
                .all(|h| h.key != K::NumberGeneric)
        );
        // A number 2 after `n.` stays a value.
        assert!(
            norm_words("Fattura n. 2 del 05/03/2024")
                .iter()
                .any(|w| w.text == "2")
        );
        assert!(
            !find_labels("Ne pas plier")
                .iter()
                .any(|h| h.key == K::Number)
        );
        for generic in ["Număr: 12", "Číslo: 12", "Número: 12"] {
            assert_eq!(
                find_labels(generic).first().map(|h| h.key),
                Some(K::NumberGeneric),
                "{generic}"
            );
        }
    }

    #[test]
    fn more_total_and_net_words() {
        for (label, key) in [
            ("Total bruto: 121,00", K::Total),
            ("Pavisam kopā: 121,00", K::Total),
            ("Lõppsumma 121,00", K::Total),
            ("Slutsumma 121,00", K::Total),
            ("Samlet beløb 121,00", K::Total),
            ("Suma totală 121,00", K::Total),
            ("Kwota brutto 121,00", K::Total),
            ("Total neto: 100,00", K::Net),
            ("Kwota netto 100,00", K::Net),
            ("Základ DPH 100,00", K::Net),
            ("Netto yhteensä 100,00", K::Net),
        ] {
            let hits = find_labels(label);
            assert_eq!(hits.first().map(|h| h.key), Some(key), "{label}: {hits:?}");
        }
    }

    #[test]
    fn folds_latin_diacritics_only() {
        assert_eq!(fold_diacritics("Číslo účtu"), "Cislo uctu");
        assert_eq!(fold_diacritics("Straße"), "Strasse");
        assert_eq!(fold_diacritics("Nº"), "No");
        // Any accent OCR puts on a Latin letter (`reġ` for Latvian `reģ`).
        assert_eq!(fold_diacritics("PVN reġ. ĝ ǧ ẽ"), "PVN reg. g g e");
        assert_eq!(keys("PVN reġ. Nr. LV58705238791")[0], K::VatId);
        assert_eq!(fold_diacritics("Счёт й"), "Счёт й");
        assert!(matches!(
            fold_diacritics("abc"),
            std::borrow::Cow::Borrowed(_)
        ));
        // Accented and unaccented wording match alike, old vocabularies included.
        assert!(keys("Fallig am").contains(&K::DueDate));
        assert!(keys("Numero de facture").contains(&K::Number));
    }

    #[test]
    fn phrases_mean_one_thing() {
        // A phrase (folded) announces one key, apart from table column headers and a few
        // deliberate pairs of the original vocabulary (e.g. `total due`: total and payable).
        let mut by_phrase: HashMap<Vec<String>, Vec<LabelKey>> = HashMap::new();
        for p in &PHRASES.phrases {
            if !p.key.is_column() {
                let e = by_phrase.entry(p.words.clone()).or_default();
                if !e.contains(&p.key) {
                    e.push(p.key);
                }
            }
        }
        let mut clashes: Vec<String> = by_phrase
            .into_iter()
            .filter(|(_, k)| k.len() > 1)
            .map(|(w, _)| w.join(" "))
            .collect();
        clashes.sort();
        assert_eq!(
            clashes,
            [
                "auftragsnummer",
                "bestellnummer",
                "bestellung",
                "from",
                "ihre bestellung",
                "leistungszeitraum",
                "order number",
                "total due",
                "zahlungsziel",
                "номер рахунку",
                "рахунок no",
            ]
        );
    }

    #[test]
    fn edit_distance() {
        assert!(within_one_edit("abcdefg", "abcdefh"));
        assert!(within_one_edit("abcdefg", "abcdfg"));
        assert!(!within_one_edit("abcdefg", "abdcefh"));
    }
    #[test]
    fn article_number_columns_in_every_language() {
        for name in [
            "Art.-Nr.",
            "Réf.",
            "Indeks",
            "Артикул",
            "Artikelnr.",
            "Codice",
            "Código",
            "Kód",
            "Kodas",
            "Kods",
            "Kood",
            "Tuotenro",
            "Artikelnr",
            "Varenr.",
            "Varenummer",
            "Cikkszám",
            "Cod",
        ] {
            let keys: Vec<LabelKey> = find_labels(name).iter().map(|h| h.key).collect();
            assert_eq!(keys, [LabelKey::ColSku], "{name}");
        }
    }
}
