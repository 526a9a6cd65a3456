//! Multilingual label vocabulary (en, de, fr, pl, uk, ru; Malaysian receipt English) and matching.
//!
//! Text is normalised to lower-case alphanumeric words (`ё` → `е`, everything else a separator),
//! so `USt-IdNr.:` is the word sequence `ust idnr`. A phrase matches a run of consecutive words;
//! the longest phrase wins at each position. Long words (7+ characters) tolerate one OCR edit.

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
            "proforma no",
            "proforma invoice no",
            "invoice id",
            "invoice ref",
            "bill #",
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
            "me",
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
    out
}

struct Phrase {
    key: LabelKey,
    words: Vec<String>,
    /// Character count of each word.
    word_chars: Vec<usize>,
    chars: usize,
}

/// Phrases with lookup by first word: exact first words in a map, and (for the OCR tolerance of
/// long words) the long first words by character count, so a text word is compared only with
/// phrases that can match it.
struct PhraseIndex {
    phrases: Vec<Phrase>,
    by_first: HashMap<String, Vec<usize>>,
    fuzzy_by_len: HashMap<usize, Vec<usize>>,
}

static PHRASES: LazyLock<PhraseIndex> = LazyLock::new(|| {
    let mut phrases = Vec::new();
    for (key, list) in VOCAB {
        for p in *list {
            let words: Vec<String> = norm_words(p).into_iter().map(|w| w.text).collect();
            if words.is_empty() {
                continue;
            }
            let word_chars: Vec<usize> = words.iter().map(|w| w.chars().count()).collect();
            let chars = word_chars.iter().sum();
            phrases.push(Phrase {
                key: *key,
                words,
                word_chars,
                chars,
            });
        }
    }
    let mut by_first: HashMap<String, Vec<usize>> = HashMap::new();
    let mut fuzzy_by_len: HashMap<usize, Vec<usize>> = HashMap::new();
    for (i, p) in phrases.iter().enumerate() {
        by_first.entry(p.words[0].clone()).or_default().push(i);
        if p.word_chars[0] >= FUZZY_MIN_CHARS {
            fuzzy_by_len.entry(p.word_chars[0]).or_default().push(i);
        }
    }
    PhraseIndex {
        phrases,
        by_first,
        fuzzy_by_len,
    }
});

/// Words at least this long tolerate one OCR edit.
const FUZZY_MIN_CHARS: usize = 7;

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

/// Whether the Levenshtein distance is at most 1 (no allocation: strip the common prefix and
/// suffix, at most one character may remain on each side).
fn within_one_edit(a: &str, b: &str) -> bool {
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

fn word_matches(text: &str, text_chars: usize, phrase: &str, phrase_chars: usize) -> bool {
    text == phrase
        || (phrase_chars >= FUZZY_MIN_CHARS
            && text_chars.abs_diff(phrase_chars) <= 1
            && within_one_edit(text, phrase))
}

/// All label matches of a text, left to right, non-overlapping, longest phrase first.
///
/// Where several keys share the same phrase (e.g. `vat` is both a totals label and a column
/// header), all of them are returned for the same range.
pub fn find_labels(text: &str) -> Vec<LabelHit> {
    let mut hits = find_labels_where(text, |_| true);
    apply_modifiers(text, &mut hits);
    hits
}

/// Like [`find_labels`], with only the phrases of keys accepted by `keep`.
pub fn find_labels_where(text: &str, keep: impl Fn(LabelKey) -> bool) -> Vec<LabelHit> {
    let words = norm_words(text);
    let word_chars: Vec<usize> = words.iter().map(|w| w.text.chars().count()).collect();
    let index = &*PHRASES;
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
            let ok = (0..n).all(|k| {
                word_matches(
                    &words[i + k].text,
                    word_chars[i + k],
                    &p.words[k],
                    p.word_chars[k],
                )
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
        for key in keys {
            out.push(LabelHit {
                key,
                start,
                end,
                word: i,
                words: best_len,
            });
        }
        i += best_len;
    }
    out
}

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
];

/// `Total sales (inclusive of GST)` is a gross total even where `total sales` alone reads as
/// net; `Total (excl. VAT)` is net.
fn apply_modifiers(text: &str, hits: &mut Vec<LabelHit>) {
    const ABSORB: &[&str] = &[
        "of", "gst", "sst", "vat", "tax", "taxes", "mwst", "ust", "tva", "ндс", "пдв", "rm", "eur",
        "%",
    ];
    let words = norm_words(text);
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

    #[test]
    fn matches_multilingual_labels() {
        assert!(keys("Rechnungsnummer: 4711").contains(&K::Number));
        assert!(keys("N° de facture : F-12").contains(&K::Number));
        assert!(keys("Nr faktury 12/2024").contains(&K::Number));
        assert!(keys("Рахунок № 15").contains(&K::Number));
        assert!(keys("Счёт № 7").contains(&K::Number));
        assert!(keys("USt-IdNr.: DE123456789").contains(&K::VatId));
        assert!(keys("ЄДРПОУ 12345678").contains(&K::Edrpou));
        assert!(keys("ИНН/КПП 7707083893/773601001").contains(&K::Inn));
        assert!(keys("ИНН/КПП 7707083893/773601001").contains(&K::Kpp));
        assert!(keys("Sprzedawca:").contains(&K::Seller));
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
        // Short words need exact matches.
        assert!(!keys("tota1").contains(&K::Total));
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
        assert!(LabelKey::ColQty.is_column());
        assert!(!LabelKey::Total.is_column());
    }

    #[test]
    fn edit_distance() {
        assert!(within_one_edit("abcdefg", "abcdefh"));
        assert!(within_one_edit("abcdefg", "abcdfg"));
        assert!(!within_one_edit("abcdefg", "abdcefh"));
    }
}
