"""Countries of the synthetic documents: companies, addresses, ids, banks, money, dates, items.

One `Country` per language (the language's main country; English is the UK or Ireland, German
Germany or Austria). Company names are built from surnames and trade words of the country with
its legal forms; VAT ids carry valid check digits for every scheme the engine checks
(`core/src/checks.rs`: DE, AT, FR, IT, ES, PT, NL, DK, FI, SE, PL, GB, BE, UA EDRPOU, RU INN) and
the country's format elsewhere; IBANs have valid ISO 13616 mod-97 check digits and the country's
length.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal

D = Decimal
CENT = D("0.01")


# ------------------------------------------------------------------------------------------
# Check digits
# ------------------------------------------------------------------------------------------


def _digits(rng: random.Random, n: int, first_nonzero: bool = True) -> str:
    s = "".join(str(rng.randrange(10)) for _ in range(n))
    if first_nonzero and s[0] == "0":
        s = str(rng.randint(1, 9)) + s[1:]
    return s


def _luhn_complete(body: str) -> str:
    for c in "0123456789":
        s = body + c
        total = 0
        for i, ch in enumerate(reversed(s)):
            x = int(ch)
            if i % 2 == 1:
                x *= 2
                x = x - 9 if x > 9 else x
            total += x
        if total % 10 == 0:
            return s
    raise AssertionError


def _w(body: str, weights: list[int]) -> int:
    return sum(int(d) * w for d, w in zip(body, weights))


def vat_id(rng: random.Random, cc: str) -> str:
    """A VAT id of country `cc`, with a valid check digit where the scheme has one."""
    while True:
        if cc == "DE":
            body = _digits(rng, 8)
            product = 10
            for ch in body:
                s = (int(ch) + product) % 10 or 10
                product = (2 * s) % 11
            return f"DE{body}{(11 - product) % 10}"
        if cc == "AT":
            body = _digits(rng, 7)
            s = 0
            for i, ch in enumerate(body):
                x = int(ch)
                if i % 2 == 1:
                    x *= 2
                    x = x // 10 + x % 10
                s += x
            return f"ATU{body}{(10 - (s + 4) % 10) % 10}"
        if cc == "FR":
            siren = _luhn_complete(_digits(rng, 8))
            return f"FR{(12 + 3 * (int(siren) % 97)) % 97:02d}{siren}"
        if cc == "IT":
            return "IT" + _luhn_complete(_digits(rng, 10, first_nonzero=False))
        if cc == "ES":
            letter = rng.choice("ABCDEFGHJNPQRSUVW")
            body = _digits(rng, 7, first_nonzero=False)
            s = 0
            for i, ch in enumerate(body):
                x = int(ch)
                if i % 2 == 0:
                    x *= 2
                    x = x // 10 + x % 10
                s += x
            control = (10 - s % 10) % 10
            last = "JABCDEFGHI"[control] if letter in "NPQRSW" else str(control)
            return f"ES{letter}{body}{last}"
        if cc == "PT":
            body = rng.choice("5") + _digits(rng, 7, first_nonzero=False)
            r = 11 - _w(body, [9, 8, 7, 6, 5, 4, 3, 2]) % 11
            return f"PT{body}{0 if r >= 10 else r}"
        if cc == "NL":
            body = _digits(rng, 8)
            r = _w(body, [9, 8, 7, 6, 5, 4, 3, 2]) % 11
            if r == 10:
                continue
            return f"NL{body}{r}B{rng.choice(['01', '01', '02'])}"
        if cc == "DK":
            body = _digits(rng, 7)
            r = _w(body, [2, 7, 6, 5, 4, 3, 2]) % 11
            check = (11 - r) % 11
            if check == 10:
                continue
            return f"DK{body}{check}"
        if cc == "FI":
            body = _digits(rng, 7, first_nonzero=False)
            r = _w(body, [7, 9, 10, 5, 8, 4, 2]) % 11
            if r == 1:
                continue
            return f"FI{body}{0 if r == 0 else 11 - r}"
        if cc == "SE":
            return f"SE{_luhn_complete(rng.choice('5') + _digits(rng, 8, first_nonzero=False))}01"
        if cc == "PL":
            body = _digits(rng, 9)
            r = _w(body, [6, 5, 7, 2, 3, 4, 5, 6, 7]) % 11
            if r == 10:
                continue
            return f"PL{body}{r}"
        if cc == "GB":
            body = _digits(rng, 7)
            return f"GB{body}{(-_w(body, [8, 7, 6, 5, 4, 3, 2])) % 97:02d}"
        if cc == "IE":
            return f"IE{_digits(rng, 7)}{rng.choice('ABCDEFHKLMPTW')}"
        if cc == "BE":
            head = "0" + _digits(rng, 7)
            return f"BE{head}{97 - int(head) % 97:02d}"
        if cc == "CZ":
            return "CZ" + _digits(rng, 8)
        if cc == "SK":
            return "SK" + _digits(rng, 10)
        if cc == "LT":
            return "LT" + _digits(rng, 9 if rng.random() < 0.5 else 12)
        if cc == "LV":
            return "LV" + rng.choice("45") + _digits(rng, 10, first_nonzero=False)
        if cc == "EE":
            return "EE10" + _digits(rng, 7, first_nonzero=False)
        if cc == "HU":
            return "HU" + _digits(rng, 8)
        if cc == "RO":
            return "RO" + _digits(rng, rng.randint(6, 9))
        if cc == "UA":  # EDRPOU
            body = _digits(rng, 7)
            n = int(body + "0")
            base = [7, 1, 2, 3, 4, 5, 6] if 30_000_000 <= n < 60_000_000 else [1, 2, 3, 4, 5, 6, 7]
            r = _w(body, base) % 11
            if r == 10:
                r = _w(body, [b + 2 for b in base]) % 11
                r = 0 if r == 10 else r
            return body + str(r)
        if cc == "RU":  # INN of an organisation
            body = _digits(rng, 9)
            return body + str(_w(body, [2, 4, 10, 3, 5, 9, 4, 6, 8]) % 11 % 10)
        raise ValueError(cc)


# IBAN: BBAN pattern per country (n = digit, a = upper letter, c = letter or digit).
BBAN = {"DE": "18n", "AT": "16n", "FR": "10n11c2n", "IT": "1a10n12c", "ES": "20n", "PT": "21n",
        "NL": "4a10n", "BE": "12n", "PL": "24n", "CZ": "20n", "SK": "20n", "LT": "16n",
        "LV": "4a13c", "EE": "16n", "FI": "14n", "SE": "20n", "DK": "14n", "HU": "24n",
        "RO": "4a16c", "GB": "4a14n", "IE": "4a14n", "UA": "6n19c"}


def iban(rng: random.Random, cc: str) -> str:
    import re

    out = []
    for n, kind in re.findall(r"(\d+)([nac])", BBAN[cc]):
        for _ in range(int(n)):
            if kind == "n":
                out.append(str(rng.randrange(10)))
            elif kind == "a":
                out.append(rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ"))
            else:
                out.append(rng.choice("0123456789") if rng.random() < 0.8 else rng.choice("ABCDEFGHKLMNPRSTUVWXYZ"))
    bban = "".join(out)
    num = "".join(str(int(c, 36)) for c in bban + cc + "00")
    return f"{cc}{98 - int(num) % 97:02d}{bban}"


# ------------------------------------------------------------------------------------------
# Money and dates
# ------------------------------------------------------------------------------------------


def money(v: Decimal, fmt: str, decimals: int = 2) -> str:
    """`fmt`: thousands separator + decimal separator, e.g. ",." (1,234.56), ".," (1.234,56),
    " ," (1 234,56), "," (no grouping, decimal comma), "." (no grouping, decimal point)."""
    q = v.quantize(D(1).scaleb(-decimals), rounding=ROUND_HALF_UP)
    sign = "-" if q < 0 else ""
    s = f"{abs(q):.{decimals}f}"
    whole, frac = (s.split(".") + [""])[:2]
    sep, dec = (fmt[0], fmt[1]) if len(fmt) == 2 else ("", fmt)
    groups = []
    while len(whole) > 3 and sep:
        groups.insert(0, whole[-3:])
        whole = whole[:-3]
    groups.insert(0, whole)
    return sign + sep.join(groups) + (dec + frac if decimals else "")


MONTHS = {
    "en": "January February March April May June July August September October November December",
    "de": "Januar Februar März April Mai Juni Juli August September Oktober November Dezember",
    "fr": "janvier février mars avril mai juin juillet août septembre octobre novembre décembre",
    "pl": "stycznia lutego marca kwietnia maja czerwca lipca sierpnia września października listopada grudnia",
    "uk": "січня лютого березня квітня травня червня липня серпня вересня жовтня листопада грудня",
    "ru": "января февраля марта апреля мая июня июля августа сентября октября ноября декабря",
    "nl": "januari februari maart april mei juni juli augustus september oktober november december",
    "it": "gennaio febbraio marzo aprile maggio giugno luglio agosto settembre ottobre novembre dicembre",
    "es": "enero febrero marzo abril mayo junio julio agosto septiembre octubre noviembre diciembre",
    "pt": "janeiro fevereiro março abril maio junho julho agosto setembro outubro novembro dezembro",
    "cs": "ledna února března dubna května června července srpna září října listopadu prosince",
    "sk": "januára februára marca apríla mája júna júla augusta septembra októbra novembra decembra",
    "lt": "sausio vasario kovo balandžio gegužės birželio liepos rugpjūčio rugsėjo spalio lapkričio gruodžio",
    "lv": "janvāris februāris marts aprīlis maijs jūnijs jūlijs augusts septembris oktobris novembris decembris",
    "et": "jaanuar veebruar märts aprill mai juuni juuli august september oktoober november detsember",
    "fi": "tammikuuta helmikuuta maaliskuuta huhtikuuta toukokuuta kesäkuuta heinäkuuta elokuuta syyskuuta lokakuuta marraskuuta joulukuuta",
    "sv": "januari februari mars april maj juni juli augusti september oktober november december",
    "da": "januar februar marts april maj juni juli august september oktober november december",
    "hu": "január február március április május június július augusztus szeptember október november december",
    "ro": "ianuarie februarie martie aprilie mai iunie iulie august septembrie octombrie noiembrie decembrie",
}
LONG = {  # the language's long date
    "en": "{d} {M} {y}", "de": "{d}. {M} {y}", "fr": "{d} {M} {y}", "pl": "{d} {M} {y} r.",
    "uk": "{d} {M} {y} р.", "ru": "«{dd}» {M} {y} г.", "nl": "{d} {M} {y}", "it": "{d} {M} {y}",
    "es": "{d} de {M} de {y}", "pt": "{d} de {M} de {y}", "cs": "{d}. {M} {y}",
    "sk": "{d}. {M} {y}", "lt": "{y} m. {M} {d} d.", "lv": "{y}. gada {d}. {M}",
    "et": "{d}. {M} {y}", "fi": "{d}. {M} {y}", "sv": "{d} {M} {y}", "da": "{d}. {M} {y}",
    "hu": "{y}. {M} {d}.", "ro": "{d} {M} {y}",
}


def date_text(iso: str, style: str, lang: str) -> str:
    y, m, d = (int(p) for p in iso.split("-"))
    if style == "long":
        return LONG[lang].format(d=d, dd=f"{d:02d}", M=MONTHS[lang].split()[m - 1], y=y)
    return {
        "dmy_dot": f"{d:02d}.{m:02d}.{y}", "dmy_dot_short": f"{d}.{m}.{y}",
        "dmy_dot_sp": f"{d}. {m}. {y}", "dmy_slash": f"{d:02d}/{m:02d}/{y}",
        "dmy_dash": f"{d:02d}-{m:02d}-{y}", "iso": iso, "ymd_dot": f"{y}.{m:02d}.{d:02d}.",
        "ymd_dot_plain": f"{y}.{m:02d}.{d:02d}", "mdy_slash": f"{m:02d}/{d:02d}/{y}",
    }[style]


# ------------------------------------------------------------------------------------------
# Countries
# ------------------------------------------------------------------------------------------


@dataclass
class Country:
    lang: str
    cc: str  # VAT / IBAN country
    currency: str
    cur_print: list[str]  # how the currency is printed (ISO code first)
    money_fmts: list[str]
    date_styles: list[str]  # first styles more common; "long" where the country writes one
    rates: list[str]
    tax_labels: list[str]
    forms: list[str]
    surnames: list[str]
    trades: list[str]
    streets: list[str]  # with {n}
    cities: list[str]  # "postcode city" lines
    items: list[str]
    food: list[str]
    decimals: int = 2
    bank_names: list[str] = field(default_factory=list)
    second_tax: tuple[str, str] | None = None  # (label, generator kind) of a second id


def C(lang, cc, cur, curp, fmts, dates, rates, tax, forms, surnames, trades, streets, cities,
      items, food, banks, decimals=2, second=None) -> Country:
    sp = lambda s: [x.strip() for x in s.split("|")]  # noqa: E731
    return Country(lang, cc, cur, sp(curp), sp(fmts), sp(dates), sp(rates), sp(tax), sp(forms),
                   sp(surnames), sp(trades), sp(streets), sp(cities), sp(items), sp(food),
                   decimals, sp(banks), second)


COUNTRIES: dict[str, list[Country]] = {
    "en": [
        C("en", "GB", "GBP", "GBP|£", ",.", "dmy_slash|long|dmy_dot|iso", "20|5|0", "VAT No.|VAT Reg. No.",
          "Ltd|Limited|LLP|plc", "Harrison|Whitfield|Pemberton|Ashworth|Caldwell|Thornton|Blackwood|Fairbairn",
          "Engineering|Logistics|Consulting|Print Works|Building Supplies|Catering|Software|Electrical",
          "{n} High Street|{n} Station Road|Unit {n}, Riverside Park|{n} Victoria Road|{n} Church Lane|{n} Mill Street",
          "London EC1A 1BB|Manchester M1 2WD|Leeds LS1 4DY|Bristol BS1 5TR|Glasgow G2 3BZ|Cardiff CF10 1EP|Norwich NR2 1RT",
          "Consulting services (day rate)|Office chair, ergonomic|Printer paper A4, 500 sheets|Software licence, annual|Delivery and installation|Electrical inspection|LED panel 600x600|Maintenance contract, monthly",
          "Flat white|Sandwich|Mineral water 0.5l|Crisps|Orange juice|Blueberry muffin",
          "Barclays Bank|HSBC UK|Lloyds Bank|NatWest"),
        C("en", "IE", "EUR", "EUR|€", ",.", "dmy_slash|long|iso", "23|13.5|9", "VAT No.|VAT Reg. No.",
          "Ltd|Limited|DAC|Teoranta", "O'Brien|Murphy|Kavanagh|Fitzgerald|Doyle|Gallagher|Byrne|McCarthy",
          "Construction|Fuels|Print|Logistics|Technologies|Hardware",
          "{n} Main Street|Unit {n}, Ballymount Business Park|{n} Dame Street|{n} Shop Street",
          "Dublin 2 D02 X285|Cork T12 RX7E|Galway H91 F2KD|Limerick V94 T9PX",
          "Consulting services|Laptop bag|Heating oil (litres)|Web hosting, annual|Site survey|Paint, 10 l",
          "Americano|Scone|Still water|Chicken wrap|Tea", "Bank of Ireland|AIB|Permanent TSB"),
    ],
    "de": [
        C("de", "DE", "EUR", "EUR|€", ".,| ,", "dmy_dot|long|iso", "19|7", "USt-IdNr.|USt-ID",
          "GmbH|AG|GmbH & Co. KG|e.K.|UG (haftungsbeschränkt)|OHG",
          "Müller|Schneider|Fischer|Weber|Becker|Hoffmann|Schäfer|Krause|Zimmermann|Hartmann",
          "Haustechnik|Logistik|Metallbau|Druckerei|Elektro|Bürobedarf|Software|Gebäudereinigung",
          "Hauptstraße {n}|Industriestraße {n}|Bahnhofstr. {n}|Am Markt {n}|Lindenallee {n}|Gewerbepark Süd {n}",
          "10115 Berlin|80331 München|50667 Köln|20095 Hamburg|70173 Stuttgart|04109 Leipzig|90402 Nürnberg",
          "Beratung (Stundensatz)|Bürostuhl ergonomisch|Kopierpapier A4, 500 Blatt|Softwarelizenz, jährlich|Montage und Anfahrt|Wartungspauschale monatlich|LED-Panel 60x60|Kabel NYM-J 3x1,5 mm²",
          "Brötchen|Vollmilch 1 l|Kaffee Crema 1 kg|Äpfel lose|Mineralwasser 1,5 l|Butter 250 g",
          "Sparkasse Köln|Commerzbank|Deutsche Bank|Volksbank Mitte"),
        C("de", "AT", "EUR", "EUR|€", ".,| ,", "dmy_dot|long", "20|10", "UID|UID-Nr.",
          "GmbH|AG|KG|e.U.", "Gruber|Huber|Bauer|Wagner|Pichler|Steiner|Moser|Mayer",
          "Installationen|Holzbau|Transporte|Elektrotechnik|Bürotechnik|Gastronomiebedarf",
          "Mariahilfer Straße {n}|Landstraße {n}|Hauptplatz {n}|Wiener Straße {n}",
          "1010 Wien|8010 Graz|4020 Linz|5020 Salzburg|6020 Innsbruck",
          "Beratung|Montagearbeiten|Holzplatten 19 mm|Wartung Heizung|Transport pauschal|Druckerpatrone",
          "Semmel|Melange|Mineralwasser|Apfelstrudel|Zeitung", "Erste Bank|Raiffeisenbank|BAWAG P.S.K."),
    ],
    "fr": [
        C("fr", "FR", "EUR", "EUR|€", " ,|.,", "dmy_slash|long|dmy_dot", "20|10|5.5", "N° TVA intracom.|TVA",
          "SARL|SAS|SA|EURL|SASU", "Martin|Bernard|Dubois|Lefèvre|Moreau|Laurent|Fournier|Girard|Rousseau",
          "Bâtiment|Transports|Informatique|Imprimerie|Électricité|Conseil|Boulangerie|Plomberie",
          "{n} rue de la République|{n} avenue Jean Jaurès|{n} boulevard Voltaire|{n} rue Victor Hugo|ZA des Près, lot {n}",
          "75011 Paris|69002 Lyon|13001 Marseille|31000 Toulouse|44000 Nantes|67000 Strasbourg|33000 Bordeaux",
          "Prestation de conseil (jour)|Chaise de bureau ergonomique|Ramette papier A4|Licence logicielle annuelle|Main d'œuvre pose|Contrat de maintenance mensuel|Dalle LED 60x60|Câble électrique 3G2,5",
          "Baguette tradition|Café expresso|Croissant|Eau minérale 1,5 l|Pain au chocolat|Jus d'orange",
          "BNP Paribas|Crédit Agricole|Société Générale|LCL"),
    ],
    "pl": [
        C("pl", "PL", "PLN", "PLN|zł", " ,|,", "dmy_dot|iso|long", "23|8|5", "NIP",
          "Sp. z o.o.|S.A.|Sp. j.|Sp. k.", "Nowak|Kowalski|Wiśniewski|Wójcik|Kamiński|Lewandowski|Zieliński|Szymański",
          "Budownictwo|Transport|Handel|Usługi Informatyczne|Drukarnia|Instalacje|Meble|Serwis",
          "ul. Marszałkowska {n}|ul. Długa {n}|ul. Piłsudskiego {n}|al. Jerozolimskie {n}|ul. Przemysłowa {n}",
          "00-950 Warszawa|30-001 Kraków|50-001 Wrocław|80-001 Gdańsk|60-001 Poznań|90-001 Łódź",
          "Usługa doradcza|Krzesło biurowe|Papier ksero A4|Licencja oprogramowania roczna|Montaż instalacji|Serwis miesięczny|Panel LED 60x60|Kabel YDY 3x2,5",
          "Chleb żytni|Mleko 2% 1 l|Kawa mielona 250 g|Jabłka luz|Woda mineralna 1,5 l|Masło 200 g",
          "PKO BP|mBank|Bank Pekao S.A.|ING Bank Śląski"),
    ],
    "uk": [
        C("uk", "UA", "UAH", "грн|UAH", " ,|,|.", "dmy_dot|long", "20|7", "Код ЄДРПОУ|ЄДРПОУ",
          "ТОВ|ПП|ФОП|ПрАТ", "Коваленко|Бондаренко|Ткаченко|Шевченко|Кравченко|Олійник|Мельник|Поліщук",
          "Будсервіс|Агроторг|Інфотех|Логістик Груп|Електромонтаж|Поліграф|Техсервіс",
          "вул. Хрещатик, {n}|вул. Шевченка, буд. {n}|просп. Перемоги, {n}|вул. Франка, {n}",
          "01001, м. Київ|79000, м. Львів|61000, м. Харків|65000, м. Одеса|49000, м. Дніпро",
          "Консультаційні послуги|Офісне крісло|Папір А4, 500 арк.|Ліцензія на ПЗ, річна|Монтажні роботи|Технічне обслуговування|Світильник LED|Кабель ВВГ 3х2,5",
          "Хліб житній|Молоко 2,5% 0,9 л|Кава мелена|Яблука|Вода мінеральна 1,5 л|Сир твердий",
          "АТ КБ «ПриватБанк»|АТ «Ощадбанк»|АТ «Райффайзен Банк»"),
    ],
    "ru": [
        C("ru", "RU", "RUB", "руб.|₽|RUB", " ,|,|.", "dmy_dot|long", "20|10", "ИНН",
          "ООО|АО|ИП|ПАО", "Иванов|Смирнов|Кузнецов|Попов|Соколов|Лебедев|Козлов|Новиков",
          "СтройМонтаж|ТехноСервис|ТрансЛогистик|Полиграфия|ЭлектроСнаб|Торговый Дом|Инфосистемы",
          "ул. Тверская, д. {n}|ул. Ленина, д. {n}|пр-т Мира, д. {n}|ул. Садовая, д. {n}",
          "125009, г. Москва|190000, г. Санкт-Петербург|620014, г. Екатеринбург|630099, г. Новосибирск",
          "Консультационные услуги|Кресло офисное|Бумага А4, 500 л.|Лицензия на ПО, годовая|Монтажные работы|Техническое обслуживание|Светильник LED|Кабель ВВГнг 3х2,5",
          "Хлеб ржаной|Молоко 3,2% 1 л|Кофе молотый|Яблоки|Вода минеральная 1,5 л|Сыр",
          "ПАО Сбербанк|Банк ВТБ (ПАО)|АО «Альфа-Банк»", second=("КПП", "kpp")),
    ],
    "nl": [
        C("nl", "NL", "EUR", "EUR|€", ".,", "dmy_dash|long|dmy_slash", "21|9", "BTW-nr.|Btw-id",
          "B.V.|N.V.|V.O.F.", "de Vries|Jansen|van den Berg|Bakker|Visser|Smit|Meijer|de Boer|Mulder",
          "Installatietechniek|Transport|Drukkerij|ICT Diensten|Bouw|Schoonmaak|Kantoorartikelen",
          "Keizersgracht {n}|Stationsweg {n}|Industrieweg {n}|Hoofdstraat {n}|Kerkstraat {n}",
          "1012 AB Amsterdam|3011 AD Rotterdam|2511 CV Den Haag|3511 AX Utrecht|5611 AB Eindhoven",
          "Advieswerkzaamheden|Bureaustoel ergonomisch|Kopieerpapier A4|Softwarelicentie jaar|Montage en voorrijkosten|Onderhoudscontract maand|LED-paneel 60x60|Installatiekabel 3x2,5",
          "Koffie|Broodje kaas|Spa blauw 0,5 l|Stroopwafels|Appels|Melk 1 l", "ING Bank|Rabobank|ABN AMRO"),
        C("nl", "BE", "EUR", "EUR|€", ".,| ,", "dmy_slash|long", "21|6", "BTW|Ondernemingsnr.",
          "BV|NV|CommV", "Peeters|Janssens|Maes|Jacobs|Willems|Claes|Goossens",
          "Bouwwerken|Transport|Elektriciteit|Drukwerk|Informatica",
          "Meir {n}|Kerkstraat {n}|Brusselsesteenweg {n}|Veldstraat {n}",
          "2000 Antwerpen|9000 Gent|3000 Leuven|8000 Brugge",
          "Advies|Plaatsing|Onderhoud|Verf, 10 l|Transportkosten", "Koffie|Pistolet|Water|Frietjes",
          "KBC Bank|BNP Paribas Fortis|Belfius"),
    ],
    "it": [
        C("it", "IT", "EUR", "EUR|€", ".,", "dmy_slash|long|dmy_dot", "22|10|4", "P.IVA|Partita IVA",
          "S.r.l.|S.p.A.|S.n.c.|S.a.s.|S.r.l.s.", "Rossi|Russo|Ferrari|Esposito|Bianchi|Romano|Colombo|Ricci|Marino",
          "Costruzioni|Trasporti|Informatica|Tipografia|Impianti Elettrici|Forniture Ufficio|Consulenze",
          "Via Roma {n}|Corso Italia {n}|Via Garibaldi {n}|Viale Europa {n}|Piazza Duomo {n}",
          "20121 Milano (MI)|00184 Roma (RM)|10121 Torino (TO)|40121 Bologna (BO)|50123 Firenze (FI)|80133 Napoli (NA)",
          "Consulenza professionale|Sedia da ufficio ergonomica|Carta A4 risma 500 fogli|Licenza software annuale|Installazione e trasferta|Canone manutenzione mensile|Pannello LED 60x60|Cavo FG16 3G2,5",
          "Caffè espresso|Cornetto|Acqua naturale 0,5 l|Panino|Spremuta d'arancia|Tramezzino",
          "Intesa Sanpaolo|UniCredit|Banco BPM"),
    ],
    "es": [
        C("es", "ES", "EUR", "EUR|€", ".,", "dmy_slash|long|dmy_dash", "21|10|4", "NIF|CIF",
          "S.L.|S.A.|S.L.U.|S.Coop.", "García|Fernández|González|Rodríguez|López|Martínez|Sánchez|Pérez|Gómez",
          "Construcciones|Transportes|Informática|Gráficas|Instalaciones Eléctricas|Suministros|Asesores",
          "Calle Mayor, {n}|Avda. de la Constitución, {n}|C/ Alcalá, {n}|Paseo de Gracia, {n}|Polígono Industrial Sur, nave {n}",
          "28013 Madrid|08007 Barcelona|46001 Valencia|41001 Sevilla|48001 Bilbao|29001 Málaga",
          "Servicios de consultoría|Silla de oficina ergonómica|Papel A4 paquete 500 hojas|Licencia de software anual|Mano de obra instalación|Cuota de mantenimiento mensual|Panel LED 60x60|Cable 3x2,5 mm",
          "Café con leche|Barra de pan|Agua mineral 1,5 l|Bocadillo|Zumo de naranja|Croissant",
          "Banco Santander|BBVA|CaixaBank"),
    ],
    "pt": [
        C("pt", "PT", "EUR", "EUR|€", " ,|.,", "dmy_slash|dmy_dash|long|iso", "23|13|6", "NIF|Contribuinte",
          "Lda.|S.A.|Unipessoal Lda.", "Silva|Santos|Ferreira|Pereira|Oliveira|Costa|Rodrigues|Martins",
          "Construções|Transportes|Informática|Artes Gráficas|Eletricidade|Consultores|Comércio",
          "Rua Augusta, {n}|Av. da Liberdade, {n}|Rua de Santa Catarina, {n}|Zona Industrial, lote {n}",
          "1100-053 Lisboa|4000-322 Porto|3000-150 Coimbra|4700-001 Braga|8000-001 Faro",
          "Serviços de consultoria|Cadeira de escritório|Papel A4, resma|Licença de software anual|Mão de obra instalação|Manutenção mensal|Painel LED 60x60|Cabo elétrico 3G2,5",
          "Café|Pastel de nata|Água 0,5 l|Tosta mista|Sumo de laranja|Pão", "Caixa Geral de Depósitos|Millennium bcp|Novo Banco"),
    ],
    "cs": [
        C("cs", "CZ", "CZK", "Kč|CZK", " ,|.,", "dmy_dot_sp|dmy_dot|dmy_dot_short|long", "21|12", "DIČ",
          "s.r.o.|a.s.|v.o.s.|k.s.", "Novák|Svoboda|Novotný|Dvořák|Černý|Procházka|Kučera|Veselý",
          "Stavby|Doprava|Elektro|Tiskárna|IT služby|Kancelářské potřeby|Instalace",
          "Václavské náměstí {n}|Národní {n}|Masarykova {n}|Průmyslová {n}|Nádražní {n}",
          "110 00 Praha 1|602 00 Brno|702 00 Ostrava|301 00 Plzeň|460 01 Liberec",
          "Poradenské služby|Kancelářská židle|Papír A4, 500 listů|Licence software roční|Montážní práce|Servisní paušál měsíční|LED panel 60x60|Kabel CYKY 3x2,5",
          "Rohlík|Mléko 1 l|Káva|Jablka|Minerální voda 1,5 l|Sýr eidam", "Komerční banka|Česká spořitelna|ČSOB",
          second=("IČO", "ico")),
    ],
    "sk": [
        C("sk", "SK", "EUR", "EUR|€", " ,", "dmy_dot|dmy_dot_sp|long", "23|19|5", "IČ DPH",
          "s.r.o.|a.s.|k.s.", "Horváth|Kováč|Varga|Tóth|Nagy|Baláž|Szabó|Molnár",
          "Stavby|Doprava|Elektro|Tlačiareň|IT služby|Obchod|Inštalácie",
          "Obchodná {n}|Hlavná {n}|Štúrova {n}|Priemyselná {n}|Mlynská {n}",
          "811 01 Bratislava|040 01 Košice|010 01 Žilina|974 01 Banská Bystrica|949 01 Nitra",
          "Poradenské služby|Kancelárska stolička|Papier A4, 500 listov|Licencia softvéru ročná|Montážne práce|Servisný paušál|LED panel 60x60|Kábel CYKY 3x2,5",
          "Rožok|Mlieko 1 l|Káva|Jablká|Minerálna voda 1,5 l|Syr", "Slovenská sporiteľňa|VÚB banka|Tatra banka",
          second=("IČO", "ico")),
    ],
    "lt": [
        C("lt", "LT", "EUR", "EUR|€", " ,|,", "iso|ymd_dot_plain|long", "21|9|5", "PVM kodas|PVM mok. kodas",
          "UAB|AB|MB|IĮ", "Kazlauskas|Jankauskas|Petrauskas|Stankevičius|Vasiliauskas|Žukauskas|Butkus",
          "Statyba|Transportas|IT sprendimai|Spaustuvė|Elektra|Prekyba|Baldai",
          "Gedimino pr. {n}|Konstitucijos pr. {n}|Laisvės al. {n}|Savanorių pr. {n}|Pramonės g. {n}",
          "LT-01103 Vilnius|LT-44240 Kaunas|LT-92100 Klaipėda|LT-76001 Šiauliai",
          "Konsultavimo paslaugos|Biuro kėdė|Popierius A4|Programinės įrangos licencija|Montavimo darbai|Priežiūra mėnesinė|LED šviestuvas|Kabelis 3x2,5",
          "Juoda duona|Pienas 1 l|Kava|Obuoliai|Mineralinis vanduo|Sūris", "Swedbank|SEB bankas|Luminor"),
    ],
    "lv": [
        C("lv", "LV", "EUR", "EUR|€", " ,|,", "dmy_dot|iso|long", "21|12|5", "PVN reģ. Nr.|PVN maksātāja Nr.",
          "SIA|AS|IK", "Bērziņš|Kalniņš|Ozoliņš|Jansons|Liepiņš|Krūmiņš|Balodis|Zariņš",
          "Būvniecība|Transports|IT risinājumi|Tipogrāfija|Elektro|Tirdzniecība",
          "Brīvības iela {n}|Krišjāņa Barona iela {n}|Elizabetes iela {n}|Rūpniecības iela {n}",
          "LV-1050 Rīga|LV-3001 Jelgava|LV-5401 Daugavpils|LV-3601 Ventspils",
          "Konsultāciju pakalpojumi|Biroja krēsls|Papīrs A4|Programmatūras licence|Montāžas darbi|Apkope ikmēneša|LED panelis|Kabelis 3x2,5",
          "Rupjmaize|Piens 1 l|Kafija|Āboli|Minerālūdens|Siers", "Swedbank|SEB banka|Citadele"),
    ],
    "et": [
        C("et", "EE", "EUR", "EUR|€", " ,|,", "dmy_dot|long", "24|9", "KMKR nr|KMKR",
          "OÜ|AS|FIE|MTÜ", "Tamm|Saar|Sepp|Mägi|Kask|Kukk|Rebane|Ilves|Pärn",
          "Ehitus|Transport|IT Lahendused|Trükikoda|Elekter|Kaubandus",
          "Narva mnt {n}|Pärnu mnt {n}|Tartu mnt {n}|Viru tn {n}|Tööstuse tn {n}",
          "10111 Tallinn|51004 Tartu|80010 Pärnu|20308 Narva",
          "Konsultatsiooniteenus|Kontoritool|Paber A4|Tarkvara litsents|Paigaldustööd|Hooldus kuutasu|LED paneel|Kaabel 3x2,5",
          "Rukkileib|Piim 1 l|Kohv|Õunad|Mineraalvesi|Juust", "Swedbank|SEB Pank|LHV Pank",
          second=("Reg. nr", "regnr")),
    ],
    "fi": [
        C("fi", "FI", "EUR", "EUR|€", " ,|,", "dmy_dot_short|dmy_dot|long", "25.5|14|10", "ALV-nro|Y-tunnus",
          "Oy|Oyj|Ky|Tmi", "Korhonen|Virtanen|Mäkinen|Nieminen|Mäkelä|Hämäläinen|Laine|Heikkinen",
          "Rakennus|Kuljetus|IT-palvelut|Painotalo|Sähkö|Kauppa|Kiinteistöhuolto",
          "Mannerheimintie {n}|Aleksanterinkatu {n}|Hämeenkatu {n}|Teollisuustie {n}|Satamakatu {n}",
          "00100 Helsinki|33100 Tampere|20100 Turku|90100 Oulu|40100 Jyväskylä",
          "Konsultointipalvelu|Toimistotuoli|Kopiopaperi A4|Ohjelmistolisenssi|Asennustyö|Huoltosopimus kk|LED-paneeli|Kaapeli MMJ 3x2,5",
          "Ruisleipä|Maito 1 l|Kahvi|Omenat|Kivennäisvesi|Juusto", "Nordea|OP|Danske Bank"),
    ],
    "sv": [
        C("sv", "SE", "SEK", "kr|SEK", " ,|,", "iso|long", "25|12|6", "Momsreg.nr|VAT-nr",
          "AB|HB|KB", "Andersson|Johansson|Karlsson|Nilsson|Eriksson|Larsson|Olsson|Persson|Lindqvist",
          "Bygg|Transport|IT-konsult|Tryckeri|El|Handel|Fastighetsservice",
          "Drottninggatan {n}|Kungsgatan {n}|Storgatan {n}|Industrivägen {n}|Sveavägen {n}",
          "111 22 Stockholm|411 05 Göteborg|211 20 Malmö|753 20 Uppsala|702 10 Örebro",
          "Konsulttjänster|Kontorsstol|Kopieringspapper A4|Programlicens år|Installationsarbete|Serviceavtal månad|LED-panel|Kabel EKK 3x2,5",
          "Kaffe|Kanelbulle|Mineralvatten|Smörgås|Mjölk 1 l|Äpplen", "Swedbank|SEB|Handelsbanken|Nordea",
          second=("Org.nr", "orgnr")),
    ],
    "da": [
        C("da", "DK", "DKK", "kr.|DKK", ".,", "dmy_dot|dmy_dash|long", "25", "CVR-nr.|SE-nr.",
          "ApS|A/S|I/S|IVS", "Jensen|Nielsen|Hansen|Pedersen|Andersen|Christensen|Larsen|Sørensen",
          "Byg|Transport|IT|Trykkeri|El-service|Handel|VVS",
          "Vesterbrogade {n}|Strøget {n}|Nørregade {n}|Industrivej {n}|Søndergade {n}",
          "1620 København V|8000 Aarhus C|5000 Odense C|9000 Aalborg|7100 Vejle",
          "Konsulentydelser|Kontorstol|Kopipapir A4|Softwarelicens år|Montagearbejde|Serviceaftale måned|LED-panel|Kabel PVIK 3x1,5",
          "Rugbrød|Mælk 1 l|Kaffe|Æbler|Danskvand|Ost", "Danske Bank|Nordea|Jyske Bank"),
    ],
    "hu": [
        C("hu", "HU", "HUF", "Ft|HUF", " ,| ,|.,", "ymd_dot|ymd_dot_plain|iso|long", "27|18|5", "Adószám|Közösségi adószám",
          "Kft.|Zrt.|Bt.|Nyrt.", "Nagy|Kovács|Tóth|Szabó|Horváth|Varga|Kiss|Molnár|Németh",
          "Építőipari|Szállítmányozási|Informatikai|Nyomda|Villamossági|Kereskedelmi",
          "Váci út {n}.|Andrássy út {n}.|Fő utca {n}.|Ipari park {n}.|Kossuth Lajos utca {n}.",
          "1051 Budapest|4024 Debrecen|6720 Szeged|7621 Pécs|9021 Győr",
          "Tanácsadási szolgáltatás|Irodai szék|Fénymásolópapír A4|Szoftverlicenc éves|Szerelési munka|Karbantartás havi díj|LED panel|Kábel MT 3x2,5",
          "Kenyér|Tej 1 l|Kávé|Alma|Ásványvíz|Sajt", "OTP Bank|K&H Bank|Erste Bank Hungary", decimals=0),
    ],
    "ro": [
        C("ro", "RO", "RON", "lei|RON", ".,", "dmy_dot|dmy_slash|long", "19|9|5", "CUI|Cod fiscal",
          "S.R.L.|S.A.|PFA|SRL", "Popescu|Ionescu|Popa|Dumitru|Stan|Stoica|Gheorghe|Munteanu|Constantin",
          "Construcții|Transport|Soluții IT|Tipografie|Instalații Electrice|Comerț",
          "Str. Victoriei nr. {n}|Bd. Unirii nr. {n}|Calea Dorobanților nr. {n}|Str. Industriilor nr. {n}",
          "010011 București|400001 Cluj-Napoca|700001 Iași|300001 Timișoara|500001 Brașov",
          "Servicii de consultanță|Scaun de birou|Hârtie A4, top|Licență software anuală|Manoperă montaj|Abonament mentenanță lunar|Panou LED|Cablu CYY-F 3x2,5",
          "Pâine|Lapte 1 l|Cafea|Mere|Apă minerală|Cașcaval", "Banca Transilvania|BCR|BRD",
          second=("Reg. Com.", "jreg")),
    ],
}


def country(rng: random.Random, lang: str) -> Country:
    cs = COUNTRIES[lang]
    return cs[0] if len(cs) == 1 or rng.random() < 0.7 else rng.choice(cs[1:])


@dataclass
class Company:
    name: str
    name_lines: list[str]  # how the name is printed (one or two lines)
    address: list[str]
    tax_label: str
    tax_id: str  # as printed
    extra: list[str]  # phone, e-mail, second id
    iban: str


def company_name(rng: random.Random, c: Country) -> str:
    a, b = rng.sample(c.surnames, 2)
    t = rng.choice(c.trades)
    form = rng.choice(c.forms)
    pattern = rng.random()
    if c.lang in ("uk", "ru"):
        q = ("«", "»") if rng.random() < 0.7 else ('"', '"')
        core = t if pattern < 0.6 else f"{a} і партнери" if c.lang == "uk" else f"{a} и партнёры"
        if form in ("ФОП", "ИП"):
            ini = rng.choice("АБВГДКМОПС") + "." + rng.choice("АВГДЕІКМНО" if c.lang == "uk" else "АВГДЕИКМНО") + "."
            return f"{form} {a} {ini}"
        return f"{form} {q[0]}{core}{q[1]}"
    if c.lang in ("lt", "lv", "et") or form in ("UAB", "AB", "MB", "SIA", "AS", "IK") and c.lang != "sv":
        core = f"{t} {a}" if pattern < 0.5 else t + (" " + rng.choice(["Baltic", "Nord", "Group", "Plus"]))
        return f"{form} \"{core}\"" if c.lang in ("lt", "lv") and rng.random() < 0.6 else (
            f"{core} {form}" if c.lang == "et" else f"{form} {core}")
    if pattern < 0.35:
        core = f"{a} {t}"
    elif pattern < 0.6:
        core = f"{a} & {b}" if c.lang != "hu" else f"{a} és {b}"
    elif pattern < 0.8:
        core = f"{t} {a}"
    else:
        core = f"{rng.choice(['Nord', 'Alpha', 'Euro', 'Delta', 'Prime', 'Vector', 'Atlas'])} {t}"
    return f"{core} {form}"


def make_company(rng: random.Random, c: Country, two_line_p: float = 0.2) -> Company:
    name = company_name(rng, c)
    words = name.split(" ")
    if len(words) >= 3 and rng.random() < two_line_p:
        cut = rng.randint(1, len(words) - 1)
        lines = [" ".join(words[:cut]), " ".join(words[cut:])]
    else:
        lines = [name]
    street = rng.choice(c.streets).format(n=rng.randint(1, 180))
    address = [street, rng.choice(c.cities)]
    label = rng.choice(c.tax_labels)
    vid = vat_id(rng, c.cc)
    printed = vid
    if c.cc in ("UA", "RU"):
        printed = vid
    elif c.cc == "HU" and label == "Adószám":
        printed = f"{vid[2:]}-{rng.choice('2345')}-{rng.randint(2, 44):02d}"
    elif c.cc == "DK" and rng.random() < 0.5:
        printed = vid[2:]
    elif c.cc == "ES" and rng.random() < 0.5:
        printed = vid[2:]
    elif c.cc == "PL" and rng.random() < 0.6:
        b = vid[2:]
        printed = b if rng.random() < 0.5 else f"{b[:3]}-{b[3:6]}-{b[6:8]}-{b[8:]}"
    elif c.cc == "PT" and label == "Contribuinte":
        printed = vid[2:]
    elif c.cc == "RO" and label == "CUI" and rng.random() < 0.5:
        printed = vid[2:]
    extra = []
    if c.second_tax and rng.random() < 0.6:
        lab, kind = c.second_tax
        val = {"kpp": _digits(rng, 9), "ico": _digits(rng, 8), "regnr": _digits(rng, 8),
               "orgnr": vid[2:8] + "-" + vid[8:12], "jreg": f"J{rng.randint(1, 52):02d}/{rng.randint(100, 9999)}/{rng.randint(2000, 2024)}"}[kind]
        extra.append(f"{lab} {val}")
    if rng.random() < 0.5:
        extra.append(rng.choice(["Tel.", "Tel:", "☎", "Phone:"]) + f" +{rng.randint(30, 48)} {_digits(rng, 3)} {_digits(rng, 3)} {_digits(rng, 3)}")
    if rng.random() < 0.3:
        dom = "".join(ch for ch in words[0].lower() if ch.isascii() and ch.isalnum()) or "firma"
        extra.append(f"info@{dom}.{c.cc.lower() if c.cc != 'GB' else 'co.uk'}")
    return Company(name, lines, address, label, printed, extra, iban(rng, c.cc) if c.cc in BBAN else "")


def bank_account_ru(rng: random.Random) -> str:
    return "40702810" + _digits(rng, 12, first_nonzero=False)
