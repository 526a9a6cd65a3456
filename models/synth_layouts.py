"""Layout families of the synthetic documents and their renderer.

A family fixes where each part of a document is printed. Invoice-like families (invoices,
credit notes, acts, waybills) are combinations of:

* `head`: where the seller is printed: `left` / `right` / `centre` letterhead, `logo` (the name
  only, large, its address in the footer), `footer` (the seller only in the footer register line
  "Name · Street · City · VAT id"), `block` (a labelled party block like the buyer's), `sidebar`
  (a left column with the seller's details), `cis` (a title line "TITLE № N від DATE" and the
  parties as labelled rows);
* `parties`: `stacked` (buyer under the seller), `side` (seller | buyer side by side),
  `side_rev` (buyer | seller), `window` (buyer in an envelope window with a small sender line
  above it), `window_right` (the window on the right), `buyer_first` (buyer block at the top);
* `meta` (number, date, due date): `right_kv` / `left_kv` (labels left of values), `above`
  (labels above values in a row), `grid` (ruled form cells, label above value), `table` (a
  one-row table under a heading row), `box` (a framed key/value box at the top right),
  `inline` (one line), `title` (in the title line: "INVOICE No. X of DATE");
* `table` (line items): `full` (ruled grid, all columns), `compact` (description, qty, price,
  amount), `gross` (net and gross columns), `plain` (no rules), `zebra` (ruled rows only),
  `qty_first` (quantity and unit, then description, price, rate, amount), `stacked` (position
  and description on one line, the numbers on the line under it), `amount_below` (the amount on
  the line under the row, with the article's EAN and, sometimes, a service period under the
  description);
* `totals`: `right` (label/value pairs at the right), `box` (the same in a frame), `left`,
  `rows` (full-width rows), `vat_table` (a per-rate summary table: rate, base, VAT, gross;
  then the total), `line` (one line "Net ... VAT ... Total ...");
* `bank`: `block`, `footer` or `none`; `page`: `a4`, `a5`, `land` (landscape); `pages`: 1, or
  `multi` (the items run over 2-3 pages with carried-forward subtotals and a repeated header).

Receipt families have their own renderer (`till`, `slip`, `thermal`, `cash_change`,
`card_slip`, `vat_block`, `big_total`, `a5_shop`, `fuel`, `restaurant`).

`FAMILIES` names every family; `HELD_OUT` lists those that only the held-out set uses.

`HARD_TABLES` (set by `synth.py --hard-tables`; off by default, so default sets stay as they
were) gives the tables of the `full` shape what real invoices print and the families above do
not: an article number column left of the description (codes, bare numbers, a word and a
number; named in the language's words, some of which no vocabulary knows), column names
stacked over two lines, and sub-lines under a description that print numbers of their own (the
gross unit price, a price basis, an included tax).

`TABLE_EXTRAS` (set by `synth.py --table-extras`; off by default, drawn from a random stream of
its own so that every other choice stays as it was) gives tables of the `full` shape three more
things real invoices print: a discount column of its own between the unit price and the rate
(`Rabatt %`: `10%`, `10,00 %`, empty or `-` where a row has none; more rows get a discount), no
header row at all, and quantities and unit prices printed to three or four decimals
(`2,000`, `3,5000`), as e-invoice renderers print them.

`TABLE_FORMS` (set by `synth.py --table-forms`; off by default, drawn from a random stream of
its own) prints the tables of the `full` shape in two more forms. Half of them are flat, as
service invoices and statements print them: no quantity, unit price or rate, only (a position,)
a description and its amount, the amount's column named by the language's amount or price word,
the amount sometimes with its currency, and descriptions over several lines (a service period, a
contract reference). Of the others, half print the rate column right of the amount, as French
and e-invoice renderers do (`Montant HT  TVA`). Independently, as ERP forms do, positions count
in tens (`10`, `20`) and the currency stands in a column of its own right of the amount.

`TABLE_GROUPS` (set by `synth.py --table-groups`; off by default, drawn from a random stream of
its own) gives tables of the `full` shape what rendered e-invoices and ERP forms print around
their rows: numbers set on the middle or the last line of a row that runs over several lines
(cells aligned to the middle or the bottom), detail lines in a smaller font under a description
(a component, a service period, a serial number), a row's discount as a sub-line with its amount
(`Discount 10%: -2.00`, the row's amount after it), and rows in titled groups (`Titel 2`), each
closed by a subtotal line whose amount stands in the amount column, positions then sometimes
numbered within the group (`2.1`, `2.2`).

`TABLE_VENDOR` (set by `synth.py --table-vendor`; off by default, drawn from a random stream of
its own) prints tables of the `full` shape as shops, hotels and service vendors print them. A
shop's table prices each row both ways: the unit price without VAT, the rate, the unit price
with VAT and the row's amount with VAT (`Unit price  VAT %  Unit price Gross  Amount Gross`),
the net amount nowhere on the row. A dated table opens each row with the day of the service
(a hotel's nights, a timesheet's days, a carrier's deliveries: `12.03.2026  Room 214  1  89.00
89.00`), in the document's date style, some rows on the same day.

`TABLE_FOLIO` (set by `synth.py --table-folio`; off by default, drawn from a random stream of its
own) prints tables of the `full` shape as a hotel's folio: each row opens with its day, the
quantity, (the unit price with VAT, the rate,) and the row's amount with VAT in a charges column
(`Belastung`); the unit price without VAT and the net amount (the truth) are printed nowhere. The guest's payment closes the
table as a row of its own (`Zahlung Visa ****4821`), in a credits column or as a negative
charge, then the balance, zero (`Saldo 0,00`); the totals then print the payment as prepaid and
nothing payable. The rows' net amounts are whole tens (thousands where amounts print no
decimals), so that their VAT, at any rate to a tenth of a percent, sums to the document's.

`TABLE_UTILITY` (set by `synth.py --table-utility`; off by default, drawn from a random stream of
its own) prints invoices' tables of the `full` shape as a utility's bill: the meter's previous
and current readings and the consumption above the rows (numbers that are no row), then an
energy charge, a standing charge by days, a network charge, sometimes metering and an energy
tax; each with the billing period, the consumption in whole units grouped as amounts are
(`2.345 kWh`), the unit price to four decimals (`0,2845`, sometimes `EUR/kWh`), the rate or not.

`TABLE_ORDER` (set by `synth.py --table-order`; off by default, drawn from a random stream of its
own) prints the unit price of tables of the `full` shape left of the quantity and its unit
(`Einzelpreis  Menge  Betrag`, as some countries' forms do), some of them under no header.

`TABLE_CHARGES` (set by `synth.py --table-charges`; off by default, drawn from a random stream of
its own) gives invoices, acts and waybills (not credit notes or folios) what e-invoices carry
outside their rows: charges at the document's level (shipping, packaging, a handling fee, at the
main rate) and, on single-rate documents, an allowance on the whole (`Sonderrabatt 3%`), printed
between the rows' sum (`Summe Positionen`) and the net, which they enter and the line items do
not; and, independently, a returned row with a negative quantity (`Rücksendung: ...  -2  ...`).

`TABLE_SCHEDULE` (set by `synth.py --table-schedule`; off by default, drawn from a random stream
of its own) prints, after the totals of invoices, acts and waybills (not credit notes), what
tax notices, utilities and instalment sales print there: a payment schedule (`Zahlungsplan`: the
payable in two to four instalments, each with its due date; a table with a header, one line per
instalment, or all on one line) and, independently, the account's open items (`Offene Posten`:
earlier invoices' numbers, dates and amounts, and the balance with this one). Numbers, dates and
amounts that are no row and no header field.

`TABLE_CARDS` (set by `synth.py --table-cards`; off by default, drawn from a random stream of
its own) prints the items of tables of the `full` shape as e-invoice renderings and some ERPs
do: one block of `Key: value` lines per item under `Position 1` (the article number, the
description, the quantity with its unit, the unit price, the rate, the amount; the keys the
table's column names, the values left-aligned in a column, right-aligned, or after the key),
a rule or a blank line between blocks, the rows' sum under the last one or not.
"""

from __future__ import annotations

import datetime
import io
import random
from decimal import Decimal

import generate as g
import synth_vocab as sv
import synth_world as sw
from synth_doc import Doc, Line

D = Decimal

HARD_TABLES = False
TABLE_EXTRAS = False
TABLE_FORMS = False
TABLE_GROUPS = False
TABLE_VENDOR = False
TABLE_FOLIO = False
TABLE_CHARGES = False
TABLE_UTILITY = False
TABLE_ORDER = False
TABLE_SCHEDULE = False
TABLE_CARDS = False
# The article number column's name per language (several no engine vocabulary knows).
SKU_WORDS = {
    "en": "Item no.", "de": "Art.-Nr.", "fr": "Réf.", "pl": "Indeks", "uk": "Артикул",
    "ru": "Артикул", "nl": "Artikelnr.", "it": "Codice", "es": "Código", "pt": "Código",
    "cs": "Kód", "sk": "Kód", "lt": "Kodas", "lv": "Kods", "et": "Kood", "fi": "Tuotenro",
    "sv": "Artikelnr", "da": "Varenr.", "hu": "Cikkszám", "ro": "Cod",
}

# A group of rows' title word and its subtotal's label per language (`TABLE_GROUPS`; some no
# engine vocabulary knows).
GROUP_WORDS = {
    "en": ("Section", "Subtotal"), "de": ("Titel", "Zwischensumme"), "fr": ("Lot", "Sous-total"),
    "pl": ("Etap", "Suma pośrednia"), "uk": ("Розділ", "Проміжний підсумок"),
    "ru": ("Раздел", "Промежуточный итог"), "nl": ("Hoofdstuk", "Subtotaal"),
    "it": ("Capitolo", "Subtotale"), "es": ("Capítulo", "Subtotal"), "pt": ("Capítulo", "Subtotal"),
    "cs": ("Oddíl", "Mezisoučet"), "sk": ("Oddiel", "Medzisúčet"), "lt": ("Skyrius", "Tarpinė suma"),
    "lv": ("Sadaļa", "Starpsumma"), "et": ("Jaotis", "Vahesumma"), "fi": ("Osa", "Välisumma"),
    "sv": ("Avsnitt", "Delsumma"), "da": ("Afsnit", "Mellemsum"), "hu": ("Fejezet", "Részösszeg"),
    "ro": ("Capitolul", "Subtotal"),
}

# A table's date column per language (`TABLE_VENDOR`).
DATE_COLUMN = {
    "en": "Date", "de": "Datum", "fr": "Date", "pl": "Data", "uk": "Дата", "ru": "Дата", "nl": "Datum",
    "it": "Data", "es": "Fecha", "pt": "Data", "cs": "Datum", "sk": "Dátum", "lt": "Data", "lv": "Datums",
    "et": "Kuupäev", "fi": "Päivä", "sv": "Datum", "da": "Dato", "hu": "Dátum", "ro": "Data",
}

# A folio's columns and lines per language (`TABLE_FOLIO`): what is charged, what is credited,
# the payment's row and the balance's label.
FOLIO_WORDS = {
    "en": ("Charges", "Credits", "Payment", "Balance"), "de": ("Belastung", "Gutschrift", "Zahlung", "Saldo"),
    "fr": ("Débit", "Crédit", "Paiement", "Solde"), "pl": ("Obciążenie", "Uznanie", "Płatność", "Saldo"),
    "uk": ("Дебет", "Кредит", "Оплата", "Сальдо"), "ru": ("Дебет", "Кредит", "Оплата", "Сальдо"),
    "nl": ("Debet", "Credit", "Betaling", "Saldo"), "it": ("Addebito", "Accredito", "Pagamento", "Saldo"),
    "es": ("Cargo", "Abono", "Pago", "Saldo"), "pt": ("Débito", "Crédito", "Pagamento", "Saldo"),
    "cs": ("Má dáti", "Dal", "Platba", "Zůstatek"), "sk": ("Má dať", "Dal", "Platba", "Zostatok"),
    "lt": ("Debetas", "Kreditas", "Mokėjimas", "Likutis"), "lv": ("Debets", "Kredīts", "Maksājums", "Atlikums"),
    "et": ("Deebet", "Kreedit", "Makse", "Saldo"), "fi": ("Veloitus", "Hyvitys", "Maksu", "Saldo"),
    "sv": ("Debet", "Kredit", "Betalning", "Saldo"), "da": ("Debet", "Kredit", "Betaling", "Saldo"),
    "hu": ("Terhelés", "Jóváírás", "Fizetés", "Egyenleg"), "ro": ("Debit", "Credit", "Plată", "Sold"),
}

# Document-level charges per language (`TABLE_CHARGES`): the rows' sum's label, charges added to
# it (some no vocabulary of the engine knows), an allowance on the whole, a returned row's word.
CHARGE_WORDS = {
    "en": ("Total items|Items total|Goods", "Shipping|Packaging|Handling fee|Freight|Small order surcharge", "Discount on total|Allowance", "Return"),
    "de": ("Summe Positionen|Warenwert|Positionssumme", "Versandkosten|Verpackung|Fracht|Mindermengenzuschlag|Bearbeitungsgebühr", "Nachlass auf Gesamtbetrag|Sonderrabatt", "Rücksendung"),
    "fr": ("Total lignes|Total articles|Montant des articles", "Frais de port|Emballage|Frais de livraison|Frais de dossier", "Remise globale|Remise exceptionnelle", "Retour"),
    "pl": ("Suma pozycji|Wartość towarów", "Koszty wysyłki|Opakowanie|Transport|Opłata manipulacyjna", "Rabat od całości|Upust dodatkowy", "Zwrot"),
    "uk": ("Сума позицій|Вартість товарів", "Доставка|Пакування|Транспортні витрати", "Знижка на замовлення", "Повернення"),
    "ru": ("Сумма позиций|Стоимость товаров", "Доставка|Упаковка|Транспортные расходы", "Скидка на заказ", "Возврат"),
    "nl": ("Totaal regels|Totaal artikelen", "Verzendkosten|Verpakking|Vracht|Administratiekosten", "Korting op totaal|Extra korting", "Retour"),
    "it": ("Totale righe|Totale merce", "Spese di spedizione|Imballo|Trasporto|Spese di incasso", "Sconto in fattura|Sconto finale", "Reso"),
    "es": ("Total líneas|Importe artículos", "Gastos de envío|Embalaje|Portes|Gastos de gestión", "Descuento pronto pago|Descuento global", "Devolución"),
    "pt": ("Total das linhas|Total artigos", "Portes de envio|Embalagem|Transporte|Taxa de serviço", "Desconto comercial|Desconto global", "Devolução"),
    "cs": ("Součet položek|Zboží celkem", "Poštovné|Balné|Doprava|Manipulační poplatek", "Sleva z celku|Mimořádná sleva", "Vratka"),
    "sk": ("Súčet položiek|Tovar spolu", "Poštovné|Balné|Doprava|Manipulačný poplatok", "Zľava z celku|Mimoriadna zľava", "Vrátenie"),
    "lt": ("Prekių suma|Eilučių suma", "Pristatymas|Pakavimas|Transportas", "Nuolaida visam užsakymui", "Grąžinimas"),
    "lv": ("Pozīciju summa|Preces kopā", "Piegāde|Iepakojums|Transports", "Atlaide pasūtījumam", "Atgriešana"),
    "et": ("Ridade summa|Kaup kokku", "Saatmiskulu|Pakend|Transport", "Allahindlus kogusummalt", "Tagastus"),
    "fi": ("Rivit yhteensä|Tuotteet yhteensä", "Toimituskulut|Pakkaus|Rahti|Laskutuslisä", "Alennus loppusummasta", "Palautus"),
    "sv": ("Summa rader|Varuvärde", "Frakt|Emballage|Expeditionsavgift|Fakturaavgift", "Rabatt på totalen", "Retur"),
    "da": ("Varelinjer i alt|Varebeløb", "Fragt|Emballage|Ekspeditionsgebyr|Fakturagebyr", "Rabat på totalen", "Retur"),
    "hu": ("Tételek összesen|Áruérték", "Szállítási díj|Csomagolás|Fuvardíj|Kezelési költség", "Engedmény a végösszegből", "Visszáru"),
    "ro": ("Total articole|Valoare mărfuri", "Transport|Ambalaj|Taxă de livrare|Taxă de procesare", "Discount la total", "Retur"),
}

# A utility bill's words per language (`TABLE_UTILITY`): energy, standing charge, network charge,
# metering, the energy tax; the meter, its previous and current readings, the consumption, the
# period, the days' unit.
UTILITY_WORDS = {
    "en": "Energy charge|Standing charge|Network charge|Metering|Electricity tax|Meter|Previous reading|Current reading|Consumption|Period|days",
    "de": "Arbeitspreis|Grundpreis|Netzentgelt|Messstellenbetrieb|Stromsteuer|Zähler|Zählerstand alt|Zählerstand neu|Verbrauch|Zeitraum|Tage",
    "fr": "Consommation énergie|Abonnement|Acheminement|Comptage|Accise sur l'électricité|Compteur|Ancien index|Nouvel index|Consommation|Période|jours",
    "pl": "Energia czynna|Opłata stała|Opłata sieciowa|Opłata abonamentowa|Akcyza|Licznik|Stan poprzedni|Stan obecny|Zużycie|Okres|dni",
    "uk": "Активна енергія|Абонентська плата|Розподіл|Облік|Акциз|Лічильник|Попередні показники|Поточні показники|Споживання|Період|дн.",
    "ru": "Активная энергия|Абонентская плата|Передача|Учёт|Акциз|Счётчик|Предыдущие показания|Текущие показания|Расход|Период|дн.",
    "nl": "Leveringstarief|Vastrecht|Netbeheerkosten|Meterhuur|Energiebelasting|Meter|Beginstand|Eindstand|Verbruik|Periode|dagen",
    "it": "Quota energia|Quota fissa|Trasporto e gestione contatore|Misura|Accisa|Contatore|Lettura precedente|Lettura attuale|Consumo|Periodo|giorni",
    "es": "Término de energía|Término de potencia|Peajes de acceso|Alquiler de contador|Impuesto eléctrico|Contador|Lectura anterior|Lectura actual|Consumo|Periodo|días",
    "pt": "Energia ativa|Termo fixo|Redes|Aluguer de contador|Imposto especial|Contador|Leitura anterior|Leitura atual|Consumo|Período|dias",
    "cs": "Silová elektřina|Stálý plat|Distribuce|Měření|Daň z elektřiny|Elektroměr|Počáteční stav|Konečný stav|Spotřeba|Období|dní",
    "sk": "Silová elektrina|Mesačná platba|Distribúcia|Meranie|Spotrebná daň|Elektromer|Počiatočný stav|Konečný stav|Spotreba|Obdobie|dní",
    "lt": "Elektros energija|Pastovioji dedamoji|Persiuntimas|Apskaita|Akcizas|Skaitiklis|Ankstesni rodmenys|Dabartiniai rodmenys|Suvartojimas|Laikotarpis|d.",
    "lv": "Elektroenerģija|Abonēšanas maksa|Sadales tīkls|Uzskaite|Akcīzes nodoklis|Skaitītājs|Iepriekšējais rādījums|Pašreizējais rādījums|Patēriņš|Periods|dienas",
    "et": "Elektrienergia|Püsitasu|Võrgutasu|Mõõtmine|Elektriaktsiis|Arvesti|Algnäit|Lõppnäit|Tarbimine|Periood|päeva",
    "fi": "Energia|Perusmaksu|Siirtomaksu|Mittaus|Sähkövero|Mittari|Alkulukema|Loppulukema|Kulutus|Jakso|pv",
    "sv": "Elenergi|Fast avgift|Elnätsavgift|Mätning|Energiskatt|Mätare|Föregående avläsning|Aktuell avläsning|Förbrukning|Period|dagar",
    "da": "Elforbrug|Abonnement|Nettarif|Måling|Elafgift|Måler|Forrige aflæsning|Aktuel aflæsning|Forbrug|Periode|dage",
    "hu": "Villamos energia|Alapdíj|Rendszerhasználati díj|Mérés|Jövedéki adó|Mérő|Előző állás|Jelenlegi állás|Fogyasztás|Időszak|nap",
    "ro": "Energie activă|Abonament|Distribuție|Măsurare|Acciză|Contor|Index vechi|Index nou|Consum|Perioadă|zile",
}

# The word of an item block's heading per language (`TABLE_CARDS`): `Position 1`.
CARD_WORDS = {
    "en": "Item|Line|Position", "de": "Position|Pos.", "fr": "Ligne|Article", "pl": "Pozycja|Poz.",
    "uk": "Позиція", "ru": "Позиция", "nl": "Regel|Positie", "it": "Riga|Posizione",
    "es": "Línea|Posición", "pt": "Linha|Posição", "cs": "Položka|Pol.", "sk": "Položka",
    "lt": "Eilutė|Pozicija", "lv": "Pozīcija|Rinda", "et": "Rida|Positsioon", "fi": "Rivi|Nimike",
    "sv": "Rad|Position", "da": "Linje|Position", "hu": "Tétel|Sor", "ro": "Poziția|Linia",
}

# The unit's key of an item block per language (`TABLE_CARDS`).
UNIT_WORDS = {
    "en": "Unit", "de": "Einheit", "fr": "Unité", "pl": "J.m.", "uk": "Од. виміру", "ru": "Ед. изм.",
    "nl": "Eenheid", "it": "U.M.", "es": "Unidad", "pt": "Unidade", "cs": "MJ", "sk": "MJ",
    "lt": "Mato vnt.", "lv": "Mērvienība", "et": "Ühik", "fi": "Yksikkö", "sv": "Enhet", "da": "Enhed",
    "hu": "Mértékegység", "ro": "U.M.",
}

# A payment schedule's and an account's open items' words per language (`TABLE_SCHEDULE`): the
# schedule's title, an instalment, due on, the open items' title, an earlier invoice, of (its
# date), the balance.
SCHEDULE_WORDS = {
    "en": "Payment schedule|Instalment|due|Open items|Invoice|of|Balance",
    "de": "Zahlungsplan|Rate|fällig am|Offene Posten|Rechnung|vom|Saldo",
    "fr": "Échéancier|Échéance|le|Relevé de compte|Facture|du|Solde",
    "pl": "Harmonogram płatności|Rata|płatna do|Nierozliczone należności|Faktura|z dnia|Saldo",
    "uk": "Графік платежів|Платіж|до|Неоплачені рахунки|Рахунок|від|Сальдо",
    "ru": "График платежей|Платёж|до|Неоплаченные счета|Счёт|от|Сальдо",
    "nl": "Betalingsschema|Termijn|vervalt op|Openstaande posten|Factuur|van|Saldo",
    "it": "Piano di pagamento|Rata|scadenza|Partite aperte|Fattura|del|Saldo",
    "es": "Calendario de pagos|Plazo|vence el|Partidas pendientes|Factura|de|Saldo",
    "pt": "Plano de pagamentos|Prestação|vence a|Documentos em aberto|Fatura|de|Saldo",
    "cs": "Splátkový kalendář|Splátka|splatná|Otevřené položky|Faktura|ze dne|Zůstatek",
    "sk": "Splátkový kalendár|Splátka|splatná|Otvorené položky|Faktúra|zo dňa|Zostatok",
    "lt": "Mokėjimų grafikas|Įmoka|iki|Neapmokėtos sąskaitos|Sąskaita|iš|Likutis",
    "lv": "Maksājumu grafiks|Maksājums|līdz|Neapmaksātie rēķini|Rēķins|no|Atlikums",
    "et": "Maksegraafik|Osamakse|tähtaeg|Tasumata arved|Arve|kuupäev|Saldo",
    "fi": "Maksusuunnitelma|Erä|eräpäivä|Avoimet laskut|Lasku|päivätty|Saldo",
    "sv": "Betalningsplan|Delbetalning|förfaller|Öppna poster|Faktura|daterad|Saldo",
    "da": "Betalingsplan|Rate|forfalder|Åbne poster|Faktura|af|Saldo",
    "hu": "Fizetési ütemezés|Részlet|esedékes|Nyitott tételek|Számla|kelte|Egyenleg",
    "ro": "Grafic de plată|Rată|scadentă la|Facturi restante|Factura|din|Sold",
}

F = dict  # a family: component choices


FAMILIES: dict[str, dict] = {
    # --- invoice-like ----------------------------------------------------------------------
    "classic_left": F(head="left", parties="stacked", meta="right_kv", table="full", totals="right"),
    "classic_right": F(head="right", parties="stacked", meta="left_kv", table="full", totals="box"),
    "centred_letterhead": F(head="centre", parties="side", meta="above", table="compact", totals="rows"),
    "din_window": F(head="right", parties="window", meta="right_kv", table="full", totals="box", bank="footer"),
    "din_window_logo": F(head="logo", parties="window", meta="box", table="zebra", totals="right", bank="footer"),
    "footer_seller": F(head="footer", parties="window", meta="right_kv", table="compact", totals="right"),
    "footer_seller_grid": F(head="footer", parties="buyer_first", meta="grid", table="full", totals="vat_table"),
    "two_col_seller_buyer": F(head="block", parties="side", meta="inline", table="full", totals="box"),
    "two_col_buyer_seller": F(head="block", parties="side_rev", meta="table", table="full", totals="right"),
    "buyer_first": F(head="block", parties="buyer_first", meta="left_kv", table="compact", totals="rows"),
    "meta_top_table": F(head="left", parties="stacked", meta="table", table="full", totals="rows"),
    "meta_left_block": F(head="right", parties="stacked", meta="left_kv", table="zebra", totals="left"),
    "labels_above": F(head="left", parties="stacked", meta="above", table="full", totals="right"),
    "ruled_meta_grid": F(head="centre", parties="side", meta="grid", table="full", totals="left", boxed=True),
    "vat_summary_right": F(head="left", parties="stacked", meta="right_kv", table="gross", totals="vat_table"),
    "vat_summary_full": F(head="centre", parties="side", meta="box", table="full", totals="vat_table", wide=True),
    "totals_left_box": F(head="right", parties="side_rev", meta="right_kv", table="compact", totals="box", tleft=True),
    "totals_rows": F(head="left", parties="side", meta="above", table="plain", totals="rows"),
    "totals_one_line": F(head="left", parties="stacked", meta="inline", table="full", totals="line"),
    "sidebar": F(head="sidebar", parties="stacked", meta="right_kv", table="compact", totals="right"),
    "plain_text": F(head="left", parties="stacked", meta="inline", table="plain", totals="left"),
    "cis_title_line": F(head="cis", parties="none", meta="title", table="full", totals="right", words=True),
    "cis_title_grid": F(head="cis", parties="none", meta="title", table="full", totals="vat_table", words=True),
    "title_meta_line": F(head="left", parties="side", meta="title", table="full", totals="box"),
    "window_right": F(head="left", parties="window_right", meta="left_kv", table="full", totals="right"),
    "logo_footer_cols": F(head="logo", parties="stacked", meta="right_kv", table="full", totals="right", bank="footer"),
    "landscape_wide": F(head="left", parties="side", meta="box", table="gross", totals="rows", page="land"),
    "a5_compact": F(head="centre", parties="stacked", meta="inline", table="compact", totals="right", page="a5"),
    "multi_page_carried": F(head="left", parties="stacked", meta="right_kv", table="full", totals="right", pages="multi"),
    "multi_page_repeat": F(head="right", parties="side", meta="box", table="zebra", totals="vat_table", pages="multi", repeat=True),
    "prepaid_payable": F(head="left", parties="stacked", meta="right_kv", table="full", totals="right", prepaid=True),
    "discount_rounding": F(head="centre", parties="side", meta="above", table="gross", totals="rows", discount=True, rounding=True),
    "act_form_grid": F(head="centre", parties="side", meta="grid", table="full", totals="right", kinds=("act",), form=True),
    "waybill_form_grid": F(head="left", parties="side", meta="grid", table="full", totals="right", kinds=("waybill",), form=True),
    "waybill_cmr_boxes": F(head="block", parties="side", meta="grid", table="plain", totals="line", kinds=("waybill",), form=True, boxed=True),
    "act_cis_table": F(head="cis", parties="none", meta="title", table="full", totals="right", kinds=("act",), words=True, form=True),
    "credit_negative_rows": F(head="left", parties="stacked", meta="right_kv", table="full", totals="rows", kinds=("credit_note",), credit="neg"),
    "credit_positive_box": F(head="right", parties="side", meta="box", table="compact", totals="box", kinds=("credit_note",), credit="pos"),
    "qty_first_rows": F(head="left", parties="side", meta="right_kv", table="qty_first", totals="right"),
    "stacked_rows": F(head="right", parties="stacked", meta="box", table="stacked", totals="box"),
    "amount_under_rows": F(head="centre", parties="window", meta="above", table="amount_below", totals="vat_table"),
    # --- receipts --------------------------------------------------------------------------
    "till": F(receipt="till"),
    "slip": F(receipt="slip"),
    "thermal": F(receipt="thermal"),
    "cash_change": F(receipt="cash_change"),
    "card_slip": F(receipt="card_slip"),
    "vat_block": F(receipt="vat_block"),
    "big_total": F(receipt="big_total"),
    "a5_shop": F(receipt="a5_shop"),
    "fuel": F(receipt="fuel"),
    "restaurant": F(receipt="restaurant"),
}
# Only the held-out set uses these (never a training document).
HELD_OUT = ("ruled_meta_grid", "footer_seller_grid", "two_col_buyer_seller", "window_right",
            "totals_left_box", "cis_title_grid", "landscape_wide", "multi_page_repeat",
            "discount_rounding", "waybill_cmr_boxes", "credit_positive_box", "amount_under_rows",
            "slip", "card_slip", "restaurant")
for _name, _f in FAMILIES.items():
    _f.setdefault("kinds", ("receipt",) if "receipt" in _f else ("invoice", "credit_note", "act", "waybill"))


def families_for(kind: str, held_out: bool) -> list[str]:
    return [n for n, f in FAMILIES.items() if kind in f["kinds"] and (n in HELD_OUT) == held_out]


# ------------------------------------------------------------------------------------------
# Invoice-like renderer
# ------------------------------------------------------------------------------------------


class R:
    """One document being drawn: canvas, pen, cursor, page count."""

    def __init__(self, doc: Doc, fam: dict, rng: random.Random):
        from reportlab.lib.pagesizes import A4, A5, landscape
        from reportlab.pdfgen import canvas

        self.doc, self.fam, self.rng = doc, fam, rng
        size = {"a4": A4, "a5": A5, "land": landscape(A4)}[fam.get("page", "a4")]
        self.buf = io.BytesIO()
        self.c = canvas.Canvas(self.buf, pagesize=size, invariant=1, pageCompression=1)
        self.w, self.h = size
        self.p = g.Pen(self.c, self.w, self.h)
        m = 34 if fam.get("page") == "a5" else 48
        self.x0, self.x1 = m, self.w - m
        if fam.get("head") == "sidebar":
            self.x0 = 170
        self.s = 0.85 if fam.get("page") == "a5" else 1.0  # font scale
        self.page = 1

    def t(self, x, y, s, size=9, bold=False, align="left"):
        self.p.text(x, y, s, size * self.s, bold=bold, align=align)

    def width(self, s, size, bold=False):
        from reportlab.pdfbase import pdfmetrics

        return pdfmetrics.stringWidth(s, g.FONT_BOLD if bold else g.FONT, size * self.s)

    def new_page(self):
        self.footer()
        self.c.showPage()
        self.page += 1

    def footer(self):
        doc, fam = self.doc, self.fam
        yb = self.h - 30
        parts = []
        if fam.get("head") in ("footer", "logo") or self.rng.random() < 0.25:
            sel = doc.seller
            parts = [sel.name if fam.get("head") != "logo" else "", *sel.address,
                     f"{sel.tax_label} {sel.tax_id}"]
            line = " · ".join(p for p in parts if p)
            for k, ln in enumerate(g.wrap(line, 7 * self.s, self.x1 - self.x0)[:2]):
                self.t((self.x0 + self.x1) / 2, yb - 10 + k * 9, ln, 7, align="center")
        if fam.get("bank") == "footer" and doc.bank_iban:
            self.t((self.x0 + self.x1) / 2, yb - 22, f"{sv.word(doc.lang, 'bank')}: IBAN {g.iban_grouped(doc.bank_iban)}", 7, align="center")
        if fam.get("pages") == "multi":
            self.t(self.x1, yb + 8, f"{sv.word(doc.lang, 'page')} {self.page}", 7, align="right")

    # --- parts ----------------------------------------------------------------------------
    def party(self, x, y, label, comp, width=230, name_size=10):
        if label:
            self.t(x, y, label, 8, bold=True)
            y += 12
        for ln in comp.name_lines:
            for part in g.wrap(ln, name_size * self.s, width):
                self.t(x, y, part, name_size, bold=True)
                y += 13 * self.s
        for a in comp.address:
            self.t(x, y, a, 9)
            y += 11 * self.s
        if comp.tax_id:
            self.t(x, y, f"{comp.tax_label} {comp.tax_id}", 9)
            y += 11 * self.s
        if comp is self.doc.buyer and self.doc.buyer_iban:
            self.t(x, y, f"IBAN {g.iban_grouped(self.doc.buyer_iban)}", 8)
            y += 10 * self.s
        for e in comp.extra[:2]:
            self.t(x, y, e, 8)
            y += 10 * self.s
        return y

    def meta_pairs(self):
        doc = self.doc
        pairs = [(doc.lab("number"), doc.number), (doc.lab("date"), doc.d(doc.date))]
        if doc.due:
            pairs.append((doc.lab("due"), doc.d(doc.due)))
        if doc.reference:
            pairs.append((sv.CREDIT_REF[doc.lang] + sv.colon(doc.lang), doc.reference))
        return pairs

    def letterhead(self, y):
        """Seller at the top per `head`; returns the y below it."""
        doc, fam = self.doc, self.fam
        sel, head = doc.seller, fam["head"]
        if head in ("left", "right", "centre"):
            align = {"left": "left", "right": "right", "centre": "center"}[head]
            x = {"left": self.x0, "right": self.x1, "centre": (self.x0 + self.x1) / 2}[head]
            for ln in sel.name_lines:
                self.t(x, y, ln, 14, bold=True, align=align)
                y += 16 * self.s
            for a in [", ".join(sel.address), f"{sel.tax_label} {sel.tax_id}", *sel.extra[:2]]:
                self.t(x, y, a, 8.5, align=align)
                y += 10.5 * self.s
            self.p.hline(self.x0, self.x1, y, 0.6)
            return y + 14
        if head == "logo":
            for ln in sel.name_lines:
                self.t(self.x0, y + 4, ln, 18, bold=True)
                y += 20 * self.s
            return y + 16
        if head == "sidebar":
            sy = 60
            for ln in sel.name_lines:
                for part in g.wrap(ln, 10, 110):
                    self.t(40, sy, part, 10, bold=True)
                    sy += 12
            for a in [*sel.address, sel.tax_label, sel.tax_id, *sel.extra]:
                for part in g.wrap(a, 7.5, 115):
                    self.t(40, sy, part, 7.5)
                    sy += 10
            if doc.bank_iban:
                sy += 10
                self.t(40, sy, "IBAN", 7.5, bold=True)
                for part in g.wrap(g.iban_grouped(doc.bank_iban), 7.5, 115):
                    sy += 10
                    self.t(40, sy, part, 7.5)
            self.p.vline(160, 50, self.h - 50, 0.5)
            return y
        return y  # footer / block / cis: the seller is printed elsewhere

    def title_and_meta(self, y):
        doc, fam = self.doc, self.fam
        meta = fam["meta"]
        title = doc.title()
        cx = (self.x0 + self.x1) / 2
        if meta == "title":
            no = {"uk": "№", "ru": "№"}.get(doc.lang, sv.split(doc.lang, "number", doc.held_out)[0])
            if doc.lang in ("uk", "ru"):
                of = {"uk": "від", "ru": "от"}[doc.lang]
                line = f"{title} {no} {doc.number} {of} {doc.d(doc.date)}"
            else:
                line = f"{title} {no} {doc.number}, {doc.lab('date')} {doc.d(doc.date)}"
            for k, ln in enumerate(g.wrap(line, 13 * self.s, self.x1 - self.x0)):
                self.t(cx if fam["head"] == "cis" else self.x0, y + k * 16, ln, 13, bold=True,
                       align="center" if fam["head"] == "cis" else "left")
            y += 16 * len(g.wrap(line, 13 * self.s, self.x1 - self.x0)) + 8
            if doc.due:
                self.t(self.x0, y, f"{doc.lab('due')} {doc.d(doc.due)}", 9)
                y += 14
            return y
        talign = {"right": "left", "left": "right"}.get(fam["head"], "center")
        tx = {"left": self.x0, "right": self.x1, "center": cx}[talign]
        if meta in ("right_kv", "box") and fam["head"] not in ("right",):
            tx, talign = self.x1, "right"
        self.t(tx, y + 6, title, 17, bold=True, align=talign)
        y += 28
        pairs = self.meta_pairs()
        if meta in ("right_kv", "left_kv", "box"):
            right = meta != "left_kv"
            if right:
                lx, vx = self.x1 - 210, self.x1
            else:
                lx, vx = self.x0, self.x0 + 190
            top = y
            for k, v in pairs:
                self.t(lx + (6 if meta == "box" else 0), y, k, 9)
                self.t(vx - (6 if meta == "box" else 0), y, v, 9, bold=True, align="right")
                y += 13 * self.s
            if meta == "box":
                self.rect(lx, top - 11, vx, y - 5)
            return y + 8
        if meta == "above":
            x = self.x0
            for k, v in pairs:
                self.t(x, y, k, 7.5)
                self.t(x, y + 13, v, 10, bold=True)
                x += (self.x1 - self.x0) / max(len(pairs), 3)
            return y + 30
        if meta == "grid":
            n = len(pairs)
            cols = [self.x0 + i * (self.x1 - self.x0) / max(n, 3) for i in range(max(n, 3) + 1)]
            self.p.hline(self.x0, self.x1, y, 0.6)
            for i, (k, v) in enumerate(pairs):
                self.t(cols[i] + 4, y + 10, k, 7.5)
                self.t(cols[i] + 4, y + 24, v, 10, bold=True)
            self.p.hline(self.x0, self.x1, y + 30, 0.6)
            for cx_ in cols:
                self.p.vline(cx_, y, y + 30, 0.6)
            return y + 42
        if meta == "table":
            n = len(pairs)
            cols = [self.x0 + i * (self.x1 - self.x0) / n for i in range(n + 1)]
            self.p.hline(self.x0, self.x1, y, 0.6)
            for i, (k, v) in enumerate(pairs):
                self.t(cols[i] + 4, y + 10, k.rstrip(": "), 8, bold=True)
                self.t(cols[i] + 4, y + 26, v, 9.5)
            self.p.hline(self.x0, self.x1, y + 14, 0.4)
            self.p.hline(self.x0, self.x1, y + 31, 0.6)
            return y + 44
        # inline
        self.t(self.x0, y, "    ".join(f"{k} {v}" for k, v in pairs), 9)
        return y + 18

    def rect(self, x0, y0, x1, y1, w=0.7):
        self.p.hline(x0, x1, y0, w)
        self.p.hline(x0, x1, y1, w)
        self.p.vline(x0, y0, y1, w)
        self.p.vline(x1, y0, y1, w)

    def parties(self, y):
        doc, fam = self.doc, self.fam
        arr, head = fam["parties"], fam["head"]
        sl = doc.lab("seller")
        bl = doc.lab("buyer")
        show_seller = head in ("block",)
        mid = (self.x0 + self.x1) / 2 + 10
        if arr == "none" or doc.buyer is None and not show_seller:
            return y
        if arr in ("side", "side_rev"):
            # Both parties side by side (the seller's block beside a letterhead too, as many
            # invoices print it); `side_rev` puts the buyer on the left.
            left, right = (doc.seller, sl), (doc.buyer, bl)
            if arr == "side_rev":
                left, right = right, left
            ya = self.party(self.x0, y, left[1], left[0], mid - self.x0 - 20)
            yb = self.party(mid, y, right[1], right[0], self.x1 - mid)
            return max(ya, yb) + 14
        if arr in ("window", "window_right"):
            x = self.x0 if arr == "window" else mid
            sender = f"{doc.seller.name} · {' · '.join(doc.seller.address)}"
            if head == "footer":
                sender = ""  # nothing of the seller at the top at all
            if sender:
                self.t(x, y, sender, 6.5)
                self.p.hline(x, x + min(self.width(sender, 6.5), 250), y + 2, 0.3)
            yy = y + 14
            for ln in doc.buyer.name_lines:
                self.t(x, yy, ln, 10)
                yy += 12
            for a in doc.buyer.address:
                self.t(x, yy, a, 10)
                yy += 12
            if doc.rng.random() < 0.5 and doc.buyer.tax_id:
                self.t(x, yy, f"{doc.buyer.tax_label} {doc.buyer.tax_id}", 8)
                yy += 11
            if doc.buyer_iban:
                self.t(x, yy, f"IBAN {g.iban_grouped(doc.buyer_iban)}", 8)
                yy += 11
            return yy + 16
        if arr == "buyer_first":
            y = self.party(self.x0, y, bl, doc.buyer) + 10
            if show_seller:
                y = self.party(self.x0, y, sl, doc.seller) + 10
            return y
        # stacked
        if show_seller:
            y = self.party(self.x0, y, sl, doc.seller) + 8
        return self.party(self.x0, y, bl, doc.buyer) + 12

    def cis_parties(self, y):
        doc = self.doc
        for lab, comp in ((doc.lab("seller"), doc.seller), (doc.lab("buyer"), doc.buyer)):
            if comp is None:
                continue
            self.t(self.x0, y, lab, 9, bold=True)
            self.t(self.x0 + 95, y, comp.name, 9, bold=True)
            y += 11
            details = ", ".join(comp.address) + f", {comp.tax_label} {comp.tax_id}"
            if comp is doc.seller and doc.account:
                details += f", {doc.account}"
            for ln in g.wrap(details, 9 * self.s, self.x1 - self.x0 - 95):
                self.t(self.x0 + 95, y, ln, 9)
                y += 11
            y += 6
        return y + 4

    # --- items ---------------------------------------------------------------------------
    def columns(self, variant):
        doc = self.doc
        lab = lambda k: sv.word(doc.lang, k)  # noqa: E731
        if variant == "compact":
            return [(lab("desc"), 0.0, "l"), (lab("qty"), 0.62, "r"), (lab("price"), 0.8, "r"), (lab("amount"), 1.0, "r")]
        if variant == "gross":
            return [(lab("desc"), 0.0, "l"), (lab("qty"), 0.42, "r"), (lab("price"), 0.56, "r"), (lab("rate"), 0.66, "r"),
                    (lab("amount"), 0.83, "r"), (lab("gross"), 1.0, "r")]
        if variant == "qty_first":
            return [(lab("qty"), 0.0, "l"), (lab("desc"), 0.12, "l"), (lab("price"), 0.7, "r"), (lab("rate"), 0.82, "r"),
                    (lab("amount"), 1.0, "r")]
        if variant == "gross_only":
            return [("#", 0.0, "l"), (lab("desc"), 0.05, "l"), (lab("qty"), 0.55, "r"), (lab("rate"), 0.7, "r"),
                    (lab("gross"), 1.0, "r")]
        if variant == "amounts_only":
            return [(lab("desc"), 0.0, "l"), (lab("rate"), 0.78, "r"), (lab("amount"), 1.0, "r")]
        if variant == "shop":
            gross = lab("gross")
            return [(lab("desc"), 0.0, "l"), (lab("qty"), 0.4, "r"), (lab("price"), 0.55, "r"), (lab("rate"), 0.64, "r"),
                    (f"{lab('price')} {gross}", 0.82, "r"), (f"{lab('amount')} {gross}", 1.0, "r")]
        if variant == "dated":
            return [(DATE_COLUMN[doc.lang], 0.0, "l"), (lab("desc"), 0.15, "l"), (lab("qty"), 0.62, "r"),
                    (lab("price"), 0.8, "r"), (lab("amount"), 1.0, "r")]
        if variant == "folio":
            charges, credits = FOLIO_WORDS[doc.lang][:2]
            rate, own, price = self.folio_style
            cols = [(DATE_COLUMN[doc.lang], 0.0, "l"), (lab("desc"), 0.21, "l"), (lab("qty"), 0.5 if price else 0.57, "r")]
            if price:
                cols.append((lab("price"), 0.6, "r"))
            if rate:
                cols.append((lab("rate"), 0.68, "r"))
            return cols + ([(charges, 0.84, "r"), (credits, 1.0, "r")] if own else [(charges, 1.0, "r")])
        if variant == "utility":
            w = UTILITY_WORDS[doc.lang].split("|")
            cols = [(lab("desc"), 0.0, "l"), (w[9], 0.24, "l"), (lab("qty"), 0.58, "r"), ("", 0.59, "l"),
                    (lab("price"), 0.76 if self.utility_rate else 0.84, "r")]
            if self.utility_rate:
                cols.append((lab("rate"), 0.85, "r"))
            return cols + [(lab("amount"), 1.0, "r")]
        if variant == "flat":
            amount = lab("amount") if self.flat_style[1] else lab("price")
            desc = [(lab("desc"), 0.05 if self.flat_style[0] else 0.0, "l"), (amount, 1.0, "r")]
            return ([("#", 0.0, "l")] if self.flat_style[0] else []) + desc
        return [("#", 0.0, "l"), (lab("desc"), 0.05, "l"), (lab("qty"), 0.52, "r"), ("", 0.53, "l"),
                (lab("price"), 0.74, "r"), (lab("rate"), 0.83, "r"), (lab("amount"), 1.0, "r")]

    def row_values(self, variant, n, ln):
        doc = self.doc
        amt = doc.line_amount(ln)
        price = doc.sign * ln.price
        if variant == "compact":
            return [ln.desc, f"{doc.qty(ln.qty)} {doc.unit_text(ln)}", doc.m(price, cur=False), doc.m(amt, cur=False)]
        if variant == "qty_first":
            return [f"{doc.qty(ln.qty)} {doc.unit_text(ln)}", ln.desc, doc.m(price, cur=False),
                    doc.rate_text(ln.rate), doc.m(amt, cur=False)]
        if variant == "amounts_only":
            # A statement's rows: what was charged and its net amount, no quantity or price.
            return [ln.desc, doc.rate_text(ln.rate), doc.m(amt, cur=False)]
        if variant == "flat":
            # What was done and what it costs, nothing else; the amount with its currency on
            # some documents.
            vals = [ln.desc, doc.m(amt, cur=self.flat_style[2])]
            return ([str(n)] if self.flat_style[0] else []) + vals
        if variant == "gross_only":
            # Only the amount with VAT: the net amount (the truth) is what an accountant derives.
            gross = amt + (amt * ln.rate / 100).quantize(doc.q)
            return [str(n), ln.desc, doc.qty(ln.qty), doc.rate_text(ln.rate), doc.m(gross, cur=False)]
        if variant == "shop":
            # Each row priced both ways; the net amount (the truth) is printed nowhere.
            gp = price + (price * ln.rate / 100).quantize(doc.q)
            return [ln.desc, f"{doc.qty(ln.qty)}", doc.m(price, cur=False), doc.rate_text(ln.rate),
                    doc.m(gp, cur=False), doc.m(self.shop_gross(ln), cur=False)]
        if variant == "folio":
            gross = amt + (amt * ln.rate / 100).quantize(doc.q)
            vals = [self.row_days[n - 1], ln.desc, doc.qty(ln.qty)]
            if self.folio_style[2]:
                vals.append(doc.m(price + (price * ln.rate / 100).quantize(doc.q), cur=False))
            if self.folio_style[0]:
                vals.append(doc.rate_text(ln.rate))
            return vals + [doc.m(gross, cur=False)] + ([""] if self.folio_style[1] else [])
        if variant == "utility":
            # The quantity a consumption in whole units (grouped as amounts are), the unit price
            # to four decimals, sometimes per unit.
            qty = sw.money(ln.qty, doc.fmt, 0) if ln.qty == ln.qty.to_integral_value() else doc.qty(ln.qty)
            unit = self.utility_units[n - 1]
            price_text = sw.money(price, doc.fmt, 4 if price != price.quantize(D("0.01")) else 2)
            if self.utility_per:
                price_text += f" {doc.cur}/{unit}"
            vals = [ln.desc, self.utility_period, qty, unit, price_text]
            if self.utility_rate:
                vals.append(doc.rate_text(ln.rate))
            return vals + [doc.m(amt, cur=False)]
        if variant == "dated":
            return [self.row_days[n - 1], ln.desc, f"{doc.qty(ln.qty)} {doc.unit_text(ln)}",
                    doc.m(price, cur=False), doc.m(amt, cur=False)]
        if variant == "gross":
            gross = amt + (amt * ln.rate / 100).quantize(doc.q)
            return [ln.desc, doc.qty(ln.qty), doc.m(price, cur=False), doc.rate_text(ln.rate),
                    doc.m(amt, cur=False), doc.m(gross, cur=False)]
        qty, price_text = doc.qty(ln.qty), doc.m(price, cur=False)
        if getattr(self, "long_decimals", False):
            # E-invoice renderers: `2,000` and `3,5000`.
            qty = sw.money(ln.qty, doc.fmt[-1], self.qty_decimals)
            price_text = sw.money(price, doc.fmt, 4)
        if getattr(self, "disc_col", False):
            if ln.disc:
                d = ln.disc.normalize()
                cell = [doc.rate_text(d), sw.money(d, doc.fmt[-1], 2) + " %", f"{doc.qty(d)}"][self.disc_style]
            else:
                cell = ["", "-", sw.money(D(0), doc.fmt[-1], 2) + " %"][self.disc_style]
            return [str(n), ln.desc, qty, doc.unit_text(ln), price_text, cell, doc.rate_text(ln.rate),
                    doc.m(amt, cur=False)]
        desc = ln.desc + (f" (-{ln.disc.normalize():f}%)" if ln.disc else "")
        return [str(n), desc, qty, doc.unit_text(ln), price_text, doc.rate_text(ln.rate), doc.m(amt, cur=False)]

    def shop_gross(self, ln):
        """A shop's row amount: the quantity times the unit price with VAT (rounded first)."""
        doc = self.doc
        price = doc.sign * ln.price
        return (ln.qty * (price + (price * ln.rate / 100).quantize(doc.q))).quantize(doc.q)

    def sku(self):
        """An article number as shops print them: a code, a bare number, a word and a number."""
        r = self.rng
        letters = "ABCDEFGHKLMNPRSTVXZ"
        kind = r.randrange(4)
        if kind == 0:
            return f"{r.choice(letters)}{r.choice(letters)}-{r.randint(100, 9999)}"
        if kind == 1:
            return str(r.randint(1000, 999999))
        if kind == 2:
            return f"{r.choice(letters)}{r.randint(10, 999)}{r.choice(letters)}{r.randint(1, 9)}"
        return f"{r.choice(['Box', 'Set', 'Kit', 'Pack', 'Line'])} {r.randint(10, 9999):04d}"

    def sub_line(self, ln):
        """A description's sub-line with numbers: the gross unit price, a price basis, the
        tax the price includes."""
        doc, r = self.doc, self.rng
        kind = r.randrange(3)
        price = doc.sign * ln.price
        if kind == 0:
            gross = price + (price * ln.rate / 100).quantize(doc.q)
            return f"{sv.word(doc.lang, 'gross')}: {doc.m(gross, cur=False)}"
        if kind == 1:
            return f"1 {doc.unit_text(ln)} = {doc.m(price, cur=False)}"
        return f"{doc.rate_text(ln.rate)} {sv.word(doc.lang, 'rate').split()[0]}"

    def table_head(self, y, cols, ruled, two_lines=False):
        W = self.x1 - self.x0
        self.p.hline(self.x0, self.x1, y, 0.8)
        y += 11
        for name, pos, al in cols:
            x = self.x0 + pos * W
            xx, align = x + (3 if al == "l" else -3), "left" if al == "l" else "right"
            words = name.split()
            if two_lines and len(words) > 1:
                # `Unit` over `price`: the name's first word on a line above the others.
                self.t(xx, y, words[0], 7.5, bold=True, align=align)
                self.t(xx, y + 9, " ".join(words[1:]), 7.5, bold=True, align=align)
            else:
                self.t(xx, y + (9 if two_lines else 0), name, 7.5, bold=True, align=align)
        y += 14 if two_lines else 5
        self.p.hline(self.x0, self.x1, y, 0.8 if ruled else 0.4)
        return y

    def items(self, y):
        doc, fam = self.doc, self.fam
        variant = fam.get("table", "full")
        shape = "full" if variant in ("plain", "zebra", "stacked", "amount_below") else variant
        cols = self.columns(shape)
        W = self.x1 - self.x0
        ruled = variant in ("full", "compact", "gross")
        multi = fam.get("pages") == "multi"
        per_page = self.rng.randint(4, 7) if multi else 10 ** 6
        # The harder table of `HARD_TABLES`: which of its parts this document prints.
        hard = HARD_TABLES and shape == "full"
        sku_col = hard and self.rng.random() < 0.6
        two_lines = hard and self.rng.random() < 0.6
        # The item blocks of `TABLE_CARDS`, from a stream of their own.
        kr = random.Random(f"{doc.name}/cards")
        if TABLE_CARDS and shape == "full" and not multi and kr.random() < 0.6:
            return self.cards(y, kr)
        sub_lines = hard and self.rng.random() < 0.5
        if hard and not sku_col and self.rng.random() < 0.35:
            shape = "gross_only"
            cols = self.columns(shape)
            doc.unprinted = {"unit_price"}
        elif hard and not sku_col and self.rng.random() < 0.3:
            shape = "amounts_only"
            cols = self.columns(shape)
            doc.unprinted = {"quantity", "unit_price"}
        # The forms of `TABLE_FORMS`, from a stream of their own (named before the option was;
        # the name stays so that the measured sets regenerate the same).
        fr = random.Random(f"{doc.name}/flat-tables")
        rate_last = False
        if TABLE_FORMS and shape == "full" and not sku_col and fr.random() < 0.5:
            shape = "flat"
            # (a position column, the amount's name the amount word, the currency printed)
            self.flat_style = (fr.random() < 0.6, fr.random() < 0.6, fr.random() < 0.3)
            cols = self.columns(shape)
            doc.unprinted = {"quantity", "unit_price", "unit"}
            if len(doc.by_rate()) > 1:
                doc.unprinted.add("vat_rate")  # no column, no single rate of the document
            sub_lines = False
            flat_notes = [fr.random() < 0.5 for _ in doc.lines]
        elif TABLE_FORMS and shape == "full" and fr.random() < 0.5:
            rate_last = True
        # The vendors' tables of `TABLE_VENDOR`, from a stream of their own.
        vr = random.Random(f"{doc.name}/vendor-tables")
        if TABLE_VENDOR and shape == "full" and not sku_col and vr.random() < 0.6:
            shape = vr.choice(["shop", "dated"])
            cols = self.columns(shape)
            sub_lines = rate_last = False
            for ln in doc.lines:
                ln.disc = D(0)
            if shape == "dated":
                day = datetime.date.fromisoformat(doc.date) - datetime.timedelta(days=vr.randint(1, 20))
                days = []
                for _ in doc.lines:
                    days.append(doc.d(day.isoformat()))
                    if vr.random() < 0.6:
                        day += datetime.timedelta(days=vr.randint(1, 3))
                self.row_days = days
                doc.unprinted = {"vat_rate"} if len(doc.by_rate()) > 1 else set()
        # A hotel's folio of `TABLE_FOLIO`, from a stream of its own.
        fo = random.Random(f"{doc.name}/folio-tables")
        if (TABLE_FOLIO and shape == "full" and not sku_col and not multi and doc.sign == 1
                and doc.kind == "invoice" and fo.random() < 0.6):
            shape = "folio"
            sub_lines = rate_last = False
            unit = 10 if doc.decimals else 1000  # whole tens of cents' currencies, thousands of HUF
            for ln in doc.lines:
                ln.disc, ln.qty, ln.price = D(0), D(fo.randint(1, 3)), D(unit * fo.randint(2, 24))
            day = datetime.date.fromisoformat(doc.date) - datetime.timedelta(days=len(doc.lines))
            days = []
            for _ in doc.lines:
                days.append(doc.d(day.isoformat()))
                if fo.random() < 0.7:
                    day += datetime.timedelta(days=1)
            self.row_days = days
            # (a rate column, a credits column of its own, a column of unit prices with VAT)
            self.folio_style = (len(doc.by_rate()) > 1 or fo.random() < 0.6, fo.random() < 0.5,
                                fo.random() < 0.4)
            cols = self.columns(shape)
            doc.unprinted = {"unit_price", "unit"}
            doc.prepaid = doc.total() + doc.rounding()
            card = fo.choice(["Visa", "Mastercard", "Maestro", "Amex", "EC"])
            self.folio_payment = (doc.d(doc.date), f"{FOLIO_WORDS[doc.lang][2]} {card} ****{fo.randint(1000, 9999)}")
        # A utility's bill of `TABLE_UTILITY`, from a stream of its own.
        ur = random.Random(f"{doc.name}/utility-tables")
        meter = None
        if (TABLE_UTILITY and shape == "full" and not sku_col and not multi and doc.sign == 1
                and doc.kind == "invoice" and ur.random() < 0.6):
            shape = "utility"
            sub_lines = rate_last = False
            w = UTILITY_WORDS[doc.lang].split("|")
            rate = doc.lines[0].rate
            scale = D(100) if doc.decimals == 0 else D(1)
            used = ur.randint(120, 9000)
            days = ur.randint(28, 31)
            old = ur.randint(10000, 90000)
            plan = [(w[0], D(used), "kWh", D(ur.randint(1500, 4500)) / 10000),
                    (w[1], D(days), w[10], D(ur.randint(1000, 9000)) / 10000),
                    (w[2], D(used), "kWh", D(ur.randint(500, 1200)) / 10000)]
            if ur.random() < 0.5:
                plan.append((w[3], D(1), "", D(ur.randint(500, 2500)) / 100))
            if ur.random() < 0.5:
                plan.append((w[4], D(used), "kWh", D(ur.randint(10, 250)) / 10000))
            doc.lines = [Line(name, q, "pcs", price * scale, rate) for name, q, _, price in plan]
            self.utility_units = [u for _, _, u, _ in plan]
            end = datetime.date.fromisoformat(doc.date).replace(day=1) - datetime.timedelta(days=1)
            start = end - datetime.timedelta(days=days - 1)
            # The period in the country's numeric dates (a long date does not fit its column).
            style = next((x for x in (doc.date_style, *doc.country.date_styles) if x != "long"), "iso")
            self.utility_period = f"{doc.d(start.isoformat(), style)} - {doc.d(end.isoformat(), style)}"
            self.utility_rate, self.utility_per = ur.random() < 0.5, ur.random() < 0.3
            cols = self.columns(shape)
            doc.unprinted = {"unit"}
            meter = (f"{w[5]} {ur.choice('ABEKSZ')}{ur.randint(10 ** 6, 10 ** 8)}",
                     f"{w[6]}: {sw.money(D(old), doc.fmt, 0)}", f"{w[7]}: {sw.money(D(old + used), doc.fmt, 0)}",
                     f"{w[8]}: {sw.money(D(used), doc.fmt, 0)} kWh")
        # The charges of `TABLE_CHARGES`, from a stream of their own: a returned row charged
        # negative, charges and an allowance between the rows' sum and the net.
        cr = random.Random(f"{doc.name}/charges")
        if TABLE_CHARGES and shape != "folio" and doc.sign == 1 and doc.kind in ("invoice", "act", "waybill"):
            cw = CHARGE_WORDS[doc.lang]
            if len(doc.lines) >= 3 and cr.random() < 0.35:
                ln = doc.lines[cr.randrange(1, len(doc.lines))]
                rest = sum((doc.line_amount(x) for x in doc.lines if x is not ln), D(0))
                if rest > 2 * doc.line_amount(ln):
                    ln.qty = -ln.qty
                    if cr.random() < 0.6:
                        ln.desc = f"{cw[3]}: {ln.desc}" if cr.random() < 0.5 else f"{cw[3]} {ln.desc}"
            if cr.random() < 0.55:
                main = doc.by_rate()[0][0]
                unit = D(1) if doc.decimals == 0 else D("0.01")
                scale = D(100) if doc.decimals == 0 and doc.items_sum() > 100000 else D(1)
                for word in cr.sample(cw[1].split("|"), cr.choice([1, 1, 2])):
                    doc.charges.append((word, (D(cr.randint(390, 4990)) / 100 * scale).quantize(unit), main))
                if len(doc.by_rate()) == 1 and cr.random() < 0.4:
                    pct = D(cr.choice([2, 3, 5, 10]))
                    cut = (doc.items_sum() * pct / 100).quantize(unit)
                    doc.charges.append((f"{cr.choice(cw[2].split('|'))} {doc.rate_text(pct)}", -cut, main))
                self.items_word = cr.choice(cw[0].split("|"))
        # Of the item tables, ERP forms: positions counted in tens (`10`, `20`), the currency
        # in a column of its own right of the amount (another stream again).
        er = random.Random(f"{doc.name}/erp-forms")
        pos_tens = TABLE_FORMS and shape == "full" and er.random() < 0.3
        cur_col = TABLE_FORMS and shape == "full" and not rate_last and er.random() < 0.3
        if shape in ("gross_only", "amounts_only", "flat"):
            # No price is printed for a discount to reduce: the rows' amounts are the amounts.
            for ln in doc.lines:
                ln.disc = D(0)
        # The extras of `TABLE_EXTRAS`, from a stream of their own.
        xr = random.Random(f"{doc.name}/table-extras")
        extras = TABLE_EXTRAS and shape == "full"
        disc_col = extras and xr.random() < 0.35
        headerless = extras and xr.random() < 0.2
        long_decimals = extras and xr.random() < 0.3
        self.disc_col, self.long_decimals = disc_col, long_decimals
        self.qty_decimals = xr.choice([2, 3, 4])
        if disc_col:
            for ln in doc.lines:
                if xr.random() < 0.4:
                    ln.disc = D(xr.choice(["2", "3", "5", "10", "12.5", "15", "20"]))
            self.disc_style = xr.randrange(3)
            word = sv.word(doc.lang, "discount")
            name = xr.choice([word, f"{word} %", "%"])
            # `#`, description, quantity, unit, price, discount, rate, amount.
            cols = [cols[0], cols[1], (cols[2][0], 0.47, "r"), ("", 0.48, "l"), (cols[4][0], 0.63, "r"),
                    (name, 0.73, "r"), (cols[5][0], 0.82, "r"), cols[6]]
        if sku_col:
            # `#`, article number, description, then the numbers as before.
            cols = [cols[0], (SKU_WORDS[doc.lang], 0.05, "l"), (cols[1][0], 0.17, "l")] + cols[2:]
        if rate_last:
            # The rate's column right of the amount's: the amount moves left to make room.
            names = [c[0] for c in cols]
            ri, ai = names.index(sv.word(doc.lang, "rate")), names.index(sv.word(doc.lang, "amount"))
            cols[ri], cols[ai] = (cols[ri][0], 1.0, "r"), (cols[ai][0], 0.9, "r")
        if cur_col:
            # The amount moves left; the currency, unnamed, right of it.
            ai = [c[0] for c in cols].index(sv.word(doc.lang, "amount"))
            cols[ai] = (cols[ai][0], 0.92, "r")
            cols = cols + [("", 0.935, "l")]
        # The column order of `TABLE_ORDER`, from a stream of its own: the unit price left of
        # the quantity and its unit, sometimes under no header.
        orr = random.Random(f"{doc.name}/column-order")
        names = [c[0] for c in cols]
        if (TABLE_ORDER and shape == "full" and sv.word(doc.lang, "qty") in names
                and sv.word(doc.lang, "price") in names and orr.random() < 0.6):
            qi, pi = names.index(sv.word(doc.lang, "qty")), names.index(sv.word(doc.lang, "price"))
            q_at, p_at = cols[qi][1], cols[pi][1]
            cols[pi] = (cols[pi][0], q_at, "r")
            cols[qi] = (cols[qi][0], p_at - 0.06, "r")
            if cols[qi + 1][0] == "":
                cols[qi + 1] = ("", p_at - 0.05, "l")
            headerless = headerless or orr.random() < 0.3
        # The groups of `TABLE_GROUPS`, from a stream of their own.
        gr = random.Random(f"{doc.name}/table-groups")
        grouped_on = TABLE_GROUPS and shape == "full" and variant not in ("stacked", "amount_below")
        valign = gr.choice(["middle", "bottom"]) if grouped_on and gr.random() < 0.5 else "top"
        details = grouped_on and gr.random() < 0.6
        disc_sub = grouped_on and not disc_col and gr.random() < 0.5
        starts = set()  # the lines that open a group after the first
        if grouped_on and not multi and len(doc.lines) >= 3 and gr.random() < 0.45:
            starts = set(gr.sample(range(1, len(doc.lines)), gr.randint(1, min(2, len(doc.lines) - 1))))
        hier = bool(starts) and cols[0][0] == "#" and gr.random() < 0.6
        group_words = GROUP_WORDS.get(doc.lang, GROUP_WORDS["en"])
        group_no, in_group, group_sum = 0, 0, D(0)
        if meter:
            # The meter's readings above the bill's rows: numbers that are no row.
            y += 4
            for k, text in enumerate(meter):
                self.t(self.x0 + W * (0.0, 0.27, 0.52, 0.77)[k], y, text, 8.5)
            y += 10
        if headerless:
            # No column names: the rows start under a rule.
            y += 6
            self.p.hline(self.x0, self.x1, y, 0.4)
        else:
            y = self.table_head(y, cols, ruled, two_lines)
        top = y
        carried = D(0)
        di = [c[0] for c in cols].index(sv.word(doc.lang, "desc"))
        desc_w = (cols[di + 1][1] - cols[di][1]) * W - 45
        if variant == "stacked":
            desc_w = W * 0.9
        for n, ln in enumerate(doc.lines, 1):
            if multi and n > 1 and (n - 1) % per_page == 0:
                y += 14
                self.t(self.x1 - 120, y, sv.word(doc.lang, "carried"), 8.5, bold=True, align="right")
                self.t(self.x1 - 3, y, doc.m(carried), 8.5, bold=True, align="right")
                self.new_page()
                y = 50
                if fam.get("repeat"):
                    y = self.letterhead(y)
                self.t(self.x0, y, f"{doc.title()} {doc.number}", 9, bold=True)
                self.t(self.x1, y, doc.d(doc.date), 9, align="right")
                y += 12
                self.t(self.x1 - 120, y + 6, sv.word(doc.lang, "brought"), 8.5, align="right")
                self.t(self.x1 - 3, y + 6, doc.m(carried), 8.5, align="right")
                if headerless:
                    y += 20
                    self.p.hline(self.x0, self.x1, y, 0.4)
                else:
                    y = self.table_head(y + 14, cols, ruled, two_lines)
                top = y
            vals = self.row_values(shape, n, ln)
            if pos_tens and cols[0][0] == "#":
                vals[0] = str(10 * n)
            if cur_col:
                vals = vals + [doc.cur]
            if sku_col:
                vals = [vals[0], self.sku()] + vals[1:]
            if starts and (n == 1 or n - 1 in starts):
                # A group's title, its number in the position column.
                group_no, in_group, group_sum = group_no + 1, 0, D(0)
                y += 14
                if hier:
                    self.t(self.x0 + cols[0][1] * W + 3, y, str(group_no), 8.5, bold=True)
                title = f"{group_words[0]} {group_no}"
                if gr.random() < 0.6:
                    title += f": {ln.desc.split()[0]}"
                self.t(self.x0 + cols[di][1] * W + 3, y, title, 8.5, bold=True)
            in_group += 1
            if hier:
                vals[0] = f"{group_no}.{in_group}"
            if disc_sub and ln.disc:
                vals[di] = ln.desc
            y += 12
            wrapped = g.wrap(vals[di], 8.5 * self.s, desc_w)
            # Where each value goes: (line under the row's first line, text) per column.
            below = {}
            if variant == "stacked":
                # Position and description first, every number on the line under them.
                below = {i: len(wrapped) for i in range(len(cols)) if i != di and cols[i][0] != "#"}
            elif variant == "amount_below":
                below = {len(cols) - 1: 1}
            # Lines under the description in a smaller font.
            small = []
            if sub_lines and self.rng.random() < 0.7:
                # A line with numbers of its own that is no row.
                small.append(self.sub_line(ln))
            elif shape == "flat" and flat_notes[n - 1]:
                # The service period, or the contract it bills as a keyed attribute.
                small.append(f"{doc.d(doc.date)} - {doc.d(doc.due or doc.date)}" if fr.random() < 0.6
                             else f"Ref.: {fr.randint(1000, 99999)}")
            if details and gr.random() < 0.5:
                for _ in range(gr.randint(1, 2)):
                    kind = gr.randrange(3)
                    if kind == 0:
                        small.append(gr.choice(doc.lines).desc)
                    elif kind == 1:
                        small.append(f"{doc.d(doc.date)} - {doc.d(doc.due or doc.date)}")
                    else:
                        small.append(f"S/N {gr.choice('ABCDKMXZ')}{gr.randint(10 ** 5, 10 ** 8)}")
            if disc_sub and ln.disc:
                cut = doc.line_gross_before_disc(ln) - doc.line_amount(ln)
                small.append(f"{sv.word(doc.lang, 'discount')} {doc.rate_text(ln.disc)}: "
                             f"{doc.m(-cut, cur=False)}")
            # The numbers' line: the first, or the middle or last of the row's lines.
            span = len(wrapped) + len(small) - 1
            at = {"top": 0, "middle": span // 2, "bottom": span}[valign]
            for i, ((name, pos, al), v) in enumerate(zip(cols, vals)):
                x = self.x0 + pos * W
                if i == di:
                    for k, part in enumerate(wrapped):
                        self.t(x + 3, y + 10 * k, part, 8.5)
                else:
                    yy = y + 10 * (below.get(i, 0) + at)
                    self.t(x + (3 if al == "l" else -3), yy, v, 8.5, align="left" if al == "l" else "right")
            extra = len(wrapped) - 1
            if variant == "stacked":
                extra += 1
            if small:
                x = self.x0 + cols[di][1] * W + 3
                for text in small:
                    self.t(x, y + 10 * (extra + 1), text, 7.5)
                    extra += 1
            elif variant == "amount_below":
                # Under the description: the article's EAN (a line of its own under the amount's
                # when the description wraps), sometimes a service period.
                x = self.x0 + cols[di][1] * W + 3
                attrs = [f"EAN: {self.rng.randint(10 ** 12, 10 ** 13 - 1)}"]
                if self.rng.random() < 0.4:
                    attrs.append(f"{doc.d(doc.date)} - {doc.d(doc.due or doc.date)}")
                first = max(len(wrapped), 1)
                for k, a in enumerate(attrs):
                    self.t(x, y + 10 * (first + k), a, 7.5)
                extra = max(extra, 1) + len(attrs)
            y += 10 * extra + 5
            if variant != "plain":
                self.p.hline(self.x0, self.x1, y, 0.3)
            # What the amount column carries over: the net amounts, or the amounts with VAT
            # where those are the last column (a shop's, a table of gross amounts only).
            if shape == "shop":
                carried += self.shop_gross(ln)
            elif shape == "gross_only":
                amt = doc.line_amount(ln)
                carried += amt + (amt * ln.rate / 100).quantize(doc.q)
            else:
                carried += doc.line_amount(ln)
            group_sum += doc.line_amount(ln)
            if starts and (n == len(doc.lines) or n in starts):
                # The group's subtotal: its label, its amount in the amount column.
                y += 12
                label = group_words[1] + (f" {group_words[0]} {group_no}" if gr.random() < 0.5 else "")
                ai = len(cols) - 2 if cur_col else len(cols) - 1
                if rate_last:
                    ai = [c[0] for c in cols].index(sv.word(doc.lang, "amount"))
                self.t(self.x0 + cols[di][1] * W + 3, y, label, 8.5, bold=True)
                self.t(self.x0 + cols[ai][1] * W - 3, y, doc.m(group_sum, cur=False), 8.5, bold=True,
                       align="right")
                y += 5
                self.p.hline(self.x0, self.x1, y, 0.3)
        if shape == "folio":
            # The guest's payment, credited or charged negative, then the balance: nothing.
            y += 12
            day, text = self.folio_payment
            pay = doc.m(doc.prepaid if self.folio_style[1] else -doc.prepaid, cur=False)
            self.t(self.x0 + cols[0][1] * W + 3, y, day, 8.5)
            self.t(self.x0 + cols[1][1] * W + 3, y, text, 8.5)
            self.t(self.x1 - 3, y, pay, 8.5, align="right")
            y += 5
            self.p.hline(self.x0, self.x1, y, 0.6)
            y += 12
            self.t(self.x0 + cols[1][1] * W + 3, y, FOLIO_WORDS[doc.lang][3], 8.5, bold=True)
            self.t(self.x1 - 3, y, doc.m(D(0), cur=False, noisy=False), 8.5, bold=True, align="right")
            y += 5
        if ruled:
            for name, pos, al in cols:
                if al == "l":
                    self.p.vline(self.x0 + pos * W, top, y, 0.4)
            self.p.vline(self.x1, top, y, 0.4)
        return y + 8

    # --- totals ---------------------------------------------------------------------------
    def total_rows(self):
        """(label, value, bold) in print order."""
        doc = self.doc
        rows = []
        if doc.discount_total():
            # The lines before their discounts, the discount, then the net.
            rows.append((sv.word(doc.lang, "amount"), doc.m(doc.items_sum() + doc.discount_total()), False))
            rows.append((doc.lab("discount"), doc.m(-doc.discount_total()), False))
        rows.extend(self.charge_rows())
        rows.append((doc.lab("net"), doc.m(doc.net()), False))
        br = doc.by_rate()
        if len(br) == 1 and self.rng.random() < 0.4:
            rows.append((f"{doc.labels['vat']} {doc.rate_text(br[0][0])}", doc.m(br[0][2]), False))
        else:
            for r, base, v in br:
                rows.append((f"{doc.labels['vat']} {doc.rate_text(r)}", doc.m(v), False))
            if len(br) > 1 and self.rng.random() < 0.5:
                rows.append((doc.lab("vat"), doc.m(doc.vat()), False))
        rows.append((doc.lab("total"), doc.m(doc.total()), True))
        if doc.rounding():
            rows.append((doc.lab("rounding"), doc.m(doc.rounding()), False))
        if doc.prepaid:
            rows.append((doc.lab("prepaid"), doc.m(-doc.prepaid), False))
        if doc.prepaid or doc.rounding():
            rows.append((doc.lab("payable"), doc.m(doc.payable()), True))
        elif self.rng.random() < 0.3:
            rows.append((doc.lab("payable"), doc.m(doc.payable()), True))
            doc.payable_printed = True
        return rows

    def charge_rows(self):
        """The rows' sum, then each document-level charge and allowance (`TABLE_CHARGES`)."""
        doc = self.doc
        if not doc.charges:
            return []
        rows = [(self.items_word, doc.m(doc.items_sum()), False)]
        rows += [(label, doc.m(amount), False) for label, amount, _ in doc.charges]
        return rows

    def totals(self, y):
        doc, fam = self.doc, self.fam
        kind = fam["totals"]
        if y > self.h - 200:
            self.new_page()
            y = 60
        if kind == "vat_table":
            W = self.x1 - self.x0
            for k, v, _ in self.charge_rows():
                y += 13
                self.t(self.x0 + W * 0.55, y, k, 9)
                self.t(self.x1 - 3, y, v, 9, align="right")
            x0 = self.x0 if fam.get("wide") else self.x0 + W * 0.35
            cols = [x0, x0 + (self.x1 - x0) * 0.25, x0 + (self.x1 - x0) * 0.5, x0 + (self.x1 - x0) * 0.75, self.x1]
            heads = [sv.word(doc.lang, "rate"), doc.labels["net"], doc.labels["vat"], sv.word(doc.lang, "gross")]
            y += 6
            self.p.hline(x0, self.x1, y, 0.6)
            for i, h_ in enumerate(heads):
                self.t(cols[i + 1] - 3, y + 10, h_, 7.5, bold=True, align="right")
            y += 14
            self.p.hline(x0, self.x1, y, 0.4)
            for r, base, v in doc.by_rate():
                y += 12
                for i, s in enumerate([doc.rate_text(r), doc.m(base, cur=False), doc.m(v, cur=False), doc.m(base + v, cur=False)]):
                    self.t(cols[i + 1] - 3, y, s, 8.5, align="right")
            y += 5
            self.p.hline(x0, self.x1, y, 0.6)
            y += 16
            self.t(cols[2], y, doc.lab("total"), 10.5, bold=True)
            self.t(self.x1 - 3, y, doc.m(doc.total()), 10.5, bold=True, align="right")
            if doc.prepaid or doc.rounding():
                if doc.rounding():
                    y += 13
                    self.t(cols[2], y, doc.lab("rounding"), 9)
                    self.t(self.x1 - 3, y, doc.m(doc.rounding()), 9, align="right")
                if doc.prepaid:
                    y += 13
                    self.t(cols[2], y, doc.lab("prepaid"), 9)
                    self.t(self.x1 - 3, y, doc.m(-doc.prepaid), 9, align="right")
                y += 14
                self.t(cols[2], y, doc.lab("payable"), 10.5, bold=True)
                self.t(self.x1 - 3, y, doc.m(doc.payable()), 10.5, bold=True, align="right")
            return y + 12
        rows = self.total_rows()
        if kind == "line":
            parts = [f"{k} {v}" for k, v, _ in rows]
            for ln in g.wrap("   ".join(parts), 9 * self.s, self.x1 - self.x0):
                y += 13
                self.t(self.x0, y, ln, 9, bold=True)
            return y + 12
        if kind == "rows":
            for k, v, b in rows:
                y += 14
                self.t(self.x0, y, k, 9.5, bold=b)
                self.t(self.x1 - 3, y, v, 9.5, bold=b, align="right")
                self.p.hline(self.x0, self.x1, y + 4, 0.2)
            return y + 14
        width = 240 * self.s
        left = kind == "left" or fam.get("tleft")
        xl = self.x0 if left else self.x1 - width
        xr = xl + width
        top = y
        for k, v, b in rows:
            y += 14
            self.t(xl + 6, y, k, 10 if b else 9, bold=b)
            self.t(xr - 6, y, v, 10 if b else 9, bold=b, align="right")
        if kind == "box":
            self.rect(xl, top + 2, xr, y + 6)
        return y + 14

    def cards(self, y, kr):
        """The items as blocks of `Key: value` lines (`TABLE_CARDS`)."""
        doc = self.doc
        lab = lambda k: sv.word(doc.lang, k)  # noqa: E731
        head = kr.choice(CARD_WORDS[doc.lang].split("|"))
        align = kr.randrange(3)  # values in a left-aligned column, right-aligned, after the key
        sku = kr.random() < 0.5
        rate = kr.random() < 0.7
        unit_apart = kr.random() < 0.3
        rule = kr.random() < 0.5
        key_x, val_x, val_r = self.x0 + 14, self.x0 + 190, self.x0 + 330
        main_rng, doc.rng = doc.rng, random.Random(kr.random())
        try:
            for n, ln in enumerate(doc.lines, 1):
                keys = []
                if sku:
                    keys.append((SKU_WORDS[doc.lang], self.sku()))
                keys.append((lab("desc"), ln.desc))
                if unit_apart:
                    keys.append((lab("qty"), doc.qty(ln.qty)))
                    keys.append((UNIT_WORDS[doc.lang], doc.unit_text(ln)))
                else:
                    keys.append((lab("qty"), f"{doc.qty(ln.qty)} {doc.unit_text(ln)}"))
                keys.append((lab("price"), doc.m(doc.sign * ln.price)))
                if ln.disc:
                    keys.append((lab("discount"), doc.rate_text(ln.disc.normalize())))
                if rate:
                    keys.append((lab("rate"), doc.rate_text(ln.rate)))
                keys.append((lab("amount"), doc.m(doc.line_amount(ln))))
                keys = [(k, v) for k, v in keys if k]
                if y > self.h - 80 - 12 * len(keys):
                    self.new_page()
                    y = 60
                y += 15
                self.t(self.x0, y, f"{head} {n}", 9, bold=True)
                for k, v in keys:
                    y += 12
                    if align == 2:
                        self.t(key_x, y, f"{k}{sv.colon(doc.lang)} {v}", 8.5)
                        continue
                    self.t(key_x, y, f"{k}{sv.colon(doc.lang)}", 8.5)
                    if align == 0:
                        self.t(val_x, y, v, 8.5)
                    else:
                        self.t(val_r, y, v, 8.5, align="right")
                y += 5
                if rule:
                    self.p.hline(self.x0, self.x1, y, 0.3)
        finally:
            doc.rng = main_rng
        return y + 12

    def schedule(self, y):
        """The payment schedule and the account's open items of `TABLE_SCHEDULE`, after the
        totals, from a stream of their own."""
        doc = self.doc
        if not TABLE_SCHEDULE or doc.sign != 1 or doc.kind not in ("invoice", "act", "waybill"):
            return y
        sr = random.Random(f"{doc.name}/schedule")
        # The printed amounts' and dates' noise from this stream too: the documents stay those
        # of the same seed without the flag, the schedule added.
        main_rng, doc.rng = doc.rng, random.Random(sr.random())
        try:
            return self._schedule(y, sr)
        finally:
            doc.rng = main_rng

    def _schedule(self, y, sr):
        doc = self.doc
        w = SCHEDULE_WORDS[doc.lang].split("|")
        unit = D(1) if doc.decimals == 0 else D("0.01")
        amount_word = sv.word(doc.lang, "amount")

        def months_later(iso, k):
            d = datetime.date.fromisoformat(iso)
            m = d.month - 1 + k
            return datetime.date(d.year + m // 12, m % 12 + 1, min(d.day, 28)).isoformat()

        def room(lines):
            nonlocal y
            if y > self.h - 70 - 13 * lines:
                self.new_page()
                y = 60

        if sr.random() < 0.6 and doc.payable() > 0:
            n = sr.choice([2, 3, 4])
            part = (doc.payable() / n).quantize(unit, rounding="ROUND_DOWN")
            parts = [part] * (n - 1) + [doc.payable() - part * (n - 1)]
            start = doc.due or (datetime.date.fromisoformat(doc.date) + datetime.timedelta(days=14)).isoformat()
            step = sr.choice([1, 1, 3])
            dates = [months_later(start, k * step) for k in range(n)]
            style = sr.randrange(3)
            room(n + 2)
            y += 14
            self.t(self.x0, y, w[0] + ("" if style == 2 else sv.colon(doc.lang)), 9, bold=True)
            if style == 0:
                y += 13
                self.t(self.x0, y, "#", 8, bold=True)
                self.t(self.x0 + 30, y, w[2].capitalize(), 8, bold=True)
                self.t(self.x0 + 260, y, amount_word, 8, bold=True, align="right")
                self.p.hline(self.x0, self.x0 + 265, y + 4, 0.4)
                for k, (d, a) in enumerate(zip(dates, parts), 1):
                    y += 12
                    self.t(self.x0, y, f"{k}.", 8.5)
                    self.t(self.x0 + 30, y, doc.d(d), 8.5)
                    self.t(self.x0 + 260, y, doc.m(a), 8.5, align="right")
            elif style == 1:
                for k, (d, a) in enumerate(zip(dates, parts), 1):
                    y += 12
                    self.t(self.x0, y, f"{k}. {w[1]} {w[2]} {doc.d(d)}{sv.colon(doc.lang)} {doc.m(a)}", 8.5)
            else:
                text = " / ".join(f"{doc.d(d)} {doc.m(a)}" for d, a in zip(dates, parts))
                for ln in g.wrap(f"{w[0]}{sv.colon(doc.lang)} {text}", 8.5 * self.s, self.x1 - self.x0):
                    y += 12
                    self.t(self.x0, y, ln, 8.5)
            y += 6
        if sr.random() < 0.4:
            digits = [i for i, ch in enumerate(doc.number) if ch.isdigit()]
            earlier = []
            for k in range(sr.choice([1, 2, 3])):
                num = list(doc.number)
                for i in digits[-3:]:
                    num[i] = str(sr.randrange(10))
                iso = (datetime.date.fromisoformat(doc.date) - datetime.timedelta(days=sr.randint(20, 150))).isoformat()
                amount = (D(sr.randint(2000, 400000)) / 100).quantize(unit)
                earlier.append(("".join(num), iso, amount))
            earlier.sort(key=lambda e: e[1])
            room(len(earlier) + 4)
            y += 14
            self.t(self.x0, y, w[3] + sv.colon(doc.lang), 9, bold=True)
            for num, iso, amount in earlier + [(doc.number, doc.date, doc.payable())]:
                y += 12
                self.t(self.x0, y, f"{w[4]} {num} {w[5]} {doc.d(iso)}", 8.5)
                self.t(self.x0 + 330, y, doc.m(amount), 8.5, align="right")
            y += 13
            self.t(self.x0, y, w[6] + sv.colon(doc.lang), 8.5, bold=True)
            self.t(self.x0 + 330, y, doc.m(sum((e[2] for e in earlier), doc.payable())), 8.5, bold=True, align="right")
            y += 6
        return y

    def words_line(self, y):
        doc = self.doc
        word = {"uk": "Всього на суму", "ru": "Всего на сумму", "pl": "Słownie"}.get(doc.lang)
        if word:
            self.t(self.x0, y, f"{word}: {doc.m(doc.payable())} ({sw_amount_words(doc)})", 8.5)
            y += 14
        return y

    def bank_block(self, y):
        doc = self.doc
        if not doc.bank_iban and not doc.account:
            return y
        self.t(self.x0, y, sv.word(doc.lang, "bank"), 8, bold=True)
        y += 11
        if doc.bank_iban:
            self.t(self.x0, y, f"IBAN: {g.iban_grouped(doc.bank_iban)}", 9)
            y += 11
        if doc.account:
            self.t(self.x0, y, f"Р/с {doc.account}", 9)
            y += 11
        return y + 6

    def signatures(self, y):
        """Signature lines with a scribble on them and, sometimes, the seller's round stamp
        over them (images and paths: not in the text layer)."""
        from reportlab.lib.utils import ImageReader

        doc, rng, c = self.doc, self.rng, self.c
        if y > self.h - 90:
            return y
        y += 34
        self.p.hline(self.x0, self.x0 + 160, y, 0.5)
        self.t(self.x0, y + 10, sv.word(doc.lang, "issued"), 8)
        self.p.hline(self.x1 - 160, self.x1, y, 0.5)
        self.t(self.x1 - 160, y + 10, sv.word(doc.lang, "received"), 8)
        for sx in (self.x0 + 20, self.x1 - 140):
            if rng.random() < 0.6:
                path = c.beginPath()
                px, py = sx, y - rng.uniform(2, 8)
                path.moveTo(px, self.h - py)
                for _ in range(rng.randint(4, 8)):
                    nx, ny = px + rng.uniform(8, 22), y - rng.uniform(0, 18)
                    path.curveTo(px + 4, self.h - (py - rng.uniform(-10, 10)), nx - 4,
                                 self.h - (ny + rng.uniform(-10, 10)), nx, self.h - ny)
                    px, py = nx, ny
                c.setLineWidth(rng.uniform(0.6, 1.2))
                c.drawPath(path, stroke=1, fill=0)
        if rng.random() < 0.4:
            img = stamp_image(rng, doc.seller.name, f"{doc.seller.tax_label} {doc.seller.tax_id}")
            side = rng.uniform(80, 110)
            sx = self.x0 + rng.uniform(60, 160)
            c.drawImage(ImageReader(img), sx, self.h - (y + side / 2), side, side, mask="auto")
        return y + 14

    def render(self) -> bytes:
        doc, fam = self.doc, self.fam
        y = 50.0
        if fam["head"] == "cis":
            y = self.title_and_meta(y)
            y = self.cis_parties(y)
        else:
            y = self.letterhead(y)
            if fam["parties"] in ("window", "window_right", "buyer_first"):
                # The buyer's block first, then title and meta below it.
                y = self.parties(y)
                y = self.title_and_meta(y)
            else:
                y = self.title_and_meta(y)
                y = self.parties(y)
        if doc.cur_pos == "header":
            self.t(self.x1, y - 2, f"{sv.CURRENCY_WORD[doc.lang]}{sv.colon(doc.lang)} {doc.currency}", 8, align="right")
            y += 8
        y = self.items(y)
        y = self.totals(y)
        y = self.schedule(y)
        if fam.get("words"):
            y = self.words_line(y + 4)
        if fam.get("bank", "block") == "block":
            y = self.bank_block(y + 8)
        if doc.kind in ("act", "waybill") or fam.get("form") or self.rng.random() < 0.3:
            y = self.signatures(y)
        self.footer()
        self.c.showPage()
        self.c.save()
        return self.buf.getvalue()


def stamp_image(rng: random.Random, name: str, tax_line: str):
    """A round company stamp as an RGBA image (ink colour, uneven, slightly rotated)."""
    from PIL import Image, ImageDraw, ImageFont

    size = 360
    img = Image.new("RGBA", (size, size), (255, 255, 255, 0))
    d = ImageDraw.Draw(img)
    ink = rng.choice([(40, 60, 170), (60, 40, 150), (150, 30, 40)])
    alpha = rng.randint(150, 220)
    c = size // 2
    for r, w in ((c - 6, 6), (c - 40, 3)):
        d.ellipse([c - r, c - r, c + r, c + r], outline=ink + (alpha,), width=w)
    font = ImageFont.truetype(str(g.FONT_DIR / "DejaVuSans-Bold.ttf"), 26)
    small = ImageFont.truetype(str(g.FONT_DIR / "DejaVuSans.ttf"), 20)
    lines = g.wrap(name, 8, 80)[:3]
    y = c - 16 * len(lines) - 10
    for ln in lines:
        d.text((c, y), ln, font=font, fill=ink + (alpha,), anchor="mm")
        y += 32
    d.text((c, y + 4), tax_line, font=small, fill=ink + (alpha,), anchor="mm")
    # Text around the ring: the tax line's characters placed one by one.
    ring = (" * " + tax_line) * 2
    import math
    for i, ch in enumerate(ring):
        a = 2 * math.pi * i / len(ring)
        x, yy = c + (c - 24) * math.sin(a), c - (c - 24) * math.cos(a)
        d.text((x, yy), ch, font=small, fill=ink + (alpha,), anchor="mm")
    # Uneven ink: knock out random specks.
    px = img.load()
    for _ in range(size * 30):
        x, yy = rng.randrange(size), rng.randrange(size)
        if px[x, yy][3]:
            px[x, yy] = (255, 255, 255, 0)
    return img.rotate(rng.uniform(-25, 25), resample=Image.BICUBIC)


def sw_amount_words(doc: Doc) -> str:
    """A stand-in for the amount in words: the integer part spelled digit by digit."""
    names = {"uk": "нуль один два три чотири п'ять шість сім вісім дев'ять",
             "ru": "ноль один два три четыре пять шесть семь восемь девять",
             "pl": "zero jeden dwa trzy cztery pięć sześć siedem osiem dziewięć"}[doc.lang].split()
    whole = str(abs(int(doc.payable())))
    return " ".join(names[int(c)] for c in whole)


def render_invoice(doc: Doc, family: str, rng: random.Random) -> bytes:
    return R(doc, FAMILIES[family], rng).render()


# ------------------------------------------------------------------------------------------
# Receipts
# ------------------------------------------------------------------------------------------


def render_receipt(doc: Doc, family: str, rng: random.Random) -> bytes:
    """Receipts 58-80 mm wide (A5 for `a5_shop`). Item prices are gross."""
    from reportlab.lib.pagesizes import A5
    from reportlab.lib.units import mm
    from reportlab.pdfgen import canvas

    lang = doc.lang
    fam = FAMILIES[family]["receipt"]
    dt = doc.d(doc.date, rng.choice(doc.country.date_styles[:2] if "long" not in doc.country.date_styles[:2]
                                     else [doc.country.date_styles[0]]))
    time = f"{rng.randint(7, 21):02d}:{rng.randint(0, 59):02d}"
    rows: list[tuple[str, str, float, bool]] = []
    sel = doc.seller
    total_label = doc.labels["receipt_total"]
    head = [(ln, "", 8.5, True) for ln in sel.name_lines]
    head += [(a, "", 7.5, False) for a in sel.address]
    head.append((f"{sel.tax_label} {sel.tax_id}", "", 7.5, False))
    if fam in ("slip", "card_slip"):
        rows += [("", "", 6, False), (doc.title(), "", 8, True)]
        rows += head
    else:
        rows += head
        rows += [("", "", 6, False)]
        if fam != "thermal" or rng.random() < 0.5:
            rows.append((doc.title(), "", 8, True))
    no = f"{sv.RECEIPT_NO[lang]} {doc.number}"
    if fam in ("till", "cash_change", "thermal", "fuel", "vat_block"):
        rows.append((no, f"{dt} {time}", 7.5, False))
    elif fam in ("big_total", "restaurant", "a5_shop"):
        rows.append((f"{doc.lab('date')} {dt}", time, 7.5, False))
        rows.append((no, "", 7.5, False))
    rows.append(("--", "", 6, False))
    if fam == "restaurant":
        rows.append((f"T {rng.randint(1, 30)}", f"#{rng.randint(1, 9)}", 7.5, False))
    tags = {}
    for r, _, _ in doc.by_rate():
        tags[r] = "ABCD"[len(tags)]
    for ln in doc.lines:
        amt = doc.line_amount(ln)
        tag = f" {tags[ln.rate]}" if fam in ("till", "vat_block", "cash_change", "thermal") else ""
        if ln.qty == 1:
            rows.append((ln.desc, doc.m(amt, cur=False) + tag, 7.5, False))
        else:
            rows.append((ln.desc, "", 7.5, False))
            rows.append((f"  {doc.qty(ln.qty)} x {doc.m(ln.price, cur=False)}", doc.m(amt, cur=False) + tag, 7.5, False))
    rows.append(("--", "", 6, False))
    br = doc.by_rate()
    total = doc.total()
    big = 12 if fam in ("slip", "big_total", "card_slip") else 10
    cur = doc.cur if doc.cur_pos != "header" else doc.currency
    if fam == "fuel":
        rows.append((f"{total_label} {cur}", doc.m(total, cur=False), big, True))
    else:
        rows.append((total_label, doc.m(total), big, True))
    if doc.rounding():
        rows.append((doc.lab("rounding"), doc.m(doc.rounding(), cur=False), 7.5, False))
        rows.append((doc.lab("payable"), doc.m(doc.payable()), 9, True))
    pay = doc.payable()
    if fam in ("cash_change", "till", "restaurant") and rng.random() < 0.8:
        given = (pay / 10).to_integral_value(rounding="ROUND_CEILING") * 10 if pay > 0 else pay
        if given == pay:
            given += 5
        rows.append((sv.word(lang, "cash"), doc.m(given, cur=False), 7.5, False))
        rows.append((sv.word(lang, "change"), doc.m(given - pay, cur=False), 7.5, False))
    elif fam in ("card_slip", "fuel", "big_total", "vat_block") or rng.random() < 0.5:
        rows.append((sv.word(lang, "card"), doc.m(pay, cur=False), 7.5, False))
    vat_word = doc.labels["vat"]
    net_word = doc.labels["net"]
    if fam in ("slip", "vat_block", "a5_shop", "card_slip", "restaurant") or (fam != "thermal" and rng.random() < 0.5):
        rows.append(("", "", 6, False))
        rows.append((f"{vat_word} %   {net_word}", vat_word, 7, True))
        for r, base, v in br:
            rows.append((f"{tags[r]} {doc.rate_text(r)}   {doc.m(base, cur=False)}", doc.m(v, cur=False), 7.5, False))
    elif fam != "thermal" or rng.random() < 0.5:
        for r, base, v in br:
            rows.append((f"{vat_word} {doc.rate_text(r)}", doc.m(v, cur=False), 7.5, False))
    else:
        doc.vat_printed = False  # a narrow slip without any VAT line: no VAT in the truth
    if fam in ("slip", "card_slip"):
        rows.append(("", "", 6, False))
        rows.append((no, "", 7.5, False))
        rows.append((f"{dt} {time}", "", 7.5, False))
    if fam == "card_slip":
        rows += [("--", "", 6, False), ("VISA **** " + str(rng.randint(1000, 9999)), "", 7, False),
                 (f"AID A0000000031010  TID {rng.randint(10 ** 7, 10 ** 8)}", "", 6.5, False),
                 (sv.word(lang, "card"), doc.m(pay), 8, True)]
    rows.append(("", "", 6, False))
    rows.append((sv.word(lang, "thanks"), "", 7.5, False))
    if fam == "a5_shop":
        width, height = A5
    else:
        width = {"thermal": 58, "fuel": 72}.get(fam, rng.choice([72, 80])) * mm
        height = sum(r[2] * 1.5 for r in rows) + 60 + 14 * len(rows) * 0.2
    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=(width, height), invariant=1, pageCompression=1)
    pen = g.Pen(c, width, height)
    margin = 30 if fam == "a5_shop" else 6
    y = 30.0 if fam == "a5_shop" else 20.0
    scale = 1.3 if fam == "a5_shop" else 1.0
    n_head = len(head) + 2
    for i, (left, right, size, bold) in enumerate(rows):
        size *= scale
        y += size * 1.45
        if left == "--":
            pen.hline(margin, width - margin, y - 3, 0.4)
            continue
        centred = not right and (i < n_head or left == sv.word(lang, "thanks"))
        if centred:
            parts = g.wrap(left, size, width - 2 * margin)
            for k, part in enumerate(parts):
                pen.text(width / 2, y + k * size * 1.2, part, size, bold=bold, align="center")
            y += (len(parts) - 1) * size * 1.2
        else:
            maxw = width - 2 * margin - (g.pdfmetrics.stringWidth(right, g.FONT, size) + 8 if right else 0)
            parts = g.wrap(left, size, maxw) or [""]
            for k, part in enumerate(parts):
                pen.text(margin, y + k * size * 1.2, part, size, bold=bold)
            if right:
                pen.text(width - margin, y + (len(parts) - 1) * size * 1.2, right, size, bold=bold, align="right")
            y += (len(parts) - 1) * size * 1.2
    c.showPage()
    c.save()
    return buf.getvalue()
