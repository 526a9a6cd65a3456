"""Synthetic training and held-out documents for the learned field scorer, with exact truth.

    python models/synth.py OUT_DIR [--train N] [--holdout N] [--seed S]

Writes `OUT_DIR/train/` and `OUT_DIR/holdout/`, each `<id>.pdf|png|jpg|tiff` + `<id>.truth.json`
(the shared truth format, plus a `synthetic` block: layout, language, scan resolution and the
printed per-rate VAT amounts). Invoices, credit notes, acts, waybills and till receipts in en,
de, fr, pl, uk, ru, built from the fixture generator's parties, items and renderers
(`fixtures/generate.py`) with randomised content: numbers in several formats, dates in every
style of the language, 1-9 line items, amounts over four orders of magnitude, one or two VAT
rates, tables with different column sets, optional bank block, signature lines with scribbles
and round stamps (images, so not in the text layer), sometimes two pages. A third of the
documents become degraded scans of every page (150-300 DPI, rotation up to 1.5 degrees, grain,
blur, JPEG artefacts, some binarised; two-page scans as a TIFF or an image-only PDF).

The held-out set uses what training never sees:
* layouts: invoices `boxed` (meta data in a ruled grid with labels above values, totals in a
  box at the left) where training has `classic` (the fixtures' layout), `left` (meta block
  under a left-aligned title, parties side by side, totals left) and `stacked` (labels above
  values in a right-hand column, no grid); receipts `slip` (number and date at the foot, a
  VAT table, the total in large type) where training has `till`;
* label wordings: each language's number / date / net / VAT / total labels (and the receipts'
  total label) have training variants and held-out variants.
"""

from __future__ import annotations

import argparse
import copy
import json
import pathlib
import random
import sys
from decimal import Decimal

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "fixtures"))
import generate as g  # noqa: E402

D = Decimal
KINDS = ["invoice", "invoice", "invoice", "credit_note", "act", "waybill", "receipt", "receipt"]
STYLES = {
    "en": ["en_long", "dmy_slash", "iso", "dmy_dot"],
    "de": ["dmy_dot", "de_long", "iso"],
    "fr": ["dmy_slash", "fr_long", "dmy_dot"],
    "pl": ["iso", "dmy_dot"],
    "uk": ["uk_long", "dmy_dot"],
    "ru": ["ru_long", "dmy_dot"],
}
# Label wordings: (training variants, held-out variants) per language and key.
VOCAB = {
    "en": dict(number=(["Invoice No.:", "Invoice #", "Invoice number:"], ["Document no.:"]),
               date=(["Invoice date:", "Date:"], ["Date of issue:"]),
               net=(["Subtotal", "Net amount"], ["Total excl. VAT"]),
               vat=(["VAT", "Tax"], ["Sales tax"]),
               total=(["Total due", "Total", "Amount due"], ["Grand total"])),
    "de": dict(number=(["Rechnungsnummer:", "Rechnung Nr.:"], ["Beleg-Nr.:"]),
               date=(["Rechnungsdatum:", "Datum:"], ["Ausstellungsdatum:"]),
               net=(["Nettobetrag", "Summe netto"], ["Zwischensumme"]),
               vat=(["Umsatzsteuer", "MwSt."], ["USt."]),
               total=(["Gesamtbetrag", "Rechnungsbetrag"], ["Endbetrag"])),
    "fr": dict(number=(["Facture n° :", "N° de facture :"], ["Référence :"]),
               date=(["Date :", "Date de facture :"], ["Émise le :"]),
               net=(["Total HT", "Montant HT"], ["Sous-total HT"]),
               vat=(["TVA", "Montant TVA"], ["Total TVA"]),
               total=(["Total TTC", "Net à payer"], ["Montant TTC"])),
    "pl": dict(number=(["Numer:", "Nr faktury:"], ["Nr dokumentu:"]),
               date=(["Data wystawienia:", "Data:"], ["Wystawiono:"]),
               net=(["Razem netto", "Wartość netto"], ["Suma netto"]),
               vat=(["Kwota VAT", "VAT"], ["Podatek VAT"]),
               total=(["Do zapłaty", "Razem brutto"], ["Wartość brutto"])),
    "uk": dict(number=(["№"], ["№"]), date=(["від"], ["від"]),
               net=(["Разом без ПДВ", "Сума без ПДВ"], ["Всього без ПДВ"]),
               vat=(["ПДВ", "Сума ПДВ"], ["ПДВ 20%:"]),
               total=(["Всього з ПДВ", "Разом до сплати"], ["Загальна сума"])),
    "ru": dict(number=(["№"], ["№"]), date=(["от"], ["от"]),
               net=(["Итого без НДС", "Сумма без НДС"], ["Всего без НДС"]),
               vat=(["НДС", "Сумма НДС"], ["В том числе НДС"]),
               total=(["Всего к оплате", "Итого с НДС"], ["Итого к оплате"])),
}


# Till receipts: (training variants, held-out variants) of the total label, and the fixed
# number label per language.
RECEIPT_TOTAL = {
    "en": (["TOTAL", "Total amount"], ["GRAND TOTAL"]),
    "de": (["SUMME", "Gesamt"], ["Bruttosumme"]),
    "fr": (["TOTAL", "Montant total"], ["TOTAL TTC"]),
    "pl": (["SUMA", "Razem"], ["Razem brutto"]),
    "uk": (["СУМА", "Разом"], ["Всього"]),
    "ru": (["ИТОГО", "Итого"], ["Всего"]),
}
RECEIPT_NO = {"en": "Receipt No.", "de": "Beleg-Nr.", "fr": "Ticket n°", "pl": "Nr paragonu",
              "uk": "Чек №", "ru": "Чек №"}
RECEIPT_VAT = {"en": "VAT", "de": "MwSt.", "fr": "TVA", "pl": "PTU", "uk": "ПДВ", "ru": "НДС"}
RECEIPT_NET = {"en": "Net", "de": "Netto", "fr": "HT", "pl": "Netto", "uk": "Без ПДВ",
               "ru": "Без НДС"}
THANKS = {"en": "Thank you for shopping!", "de": "Vielen Dank für Ihren Einkauf!",
          "fr": "Merci de votre visite !", "pl": "Dziękujemy za zakupy!",
          "uk": "Дякуємо за покупку!", "ru": "Спасибо за покупку!"}


def pools() -> dict:
    """Parties, items and bank data of the fixture documents, by language."""
    out: dict = {}
    for d in g.build_docs():
        if d.kind == "receipt":
            continue
        p = out.setdefault(d.lang, {"parties": [], "items": [], "banks": [], "currency": d.currency})
        for party in (d.seller, d.buyer):
            if party.name and party.tax_id:
                p["parties"].append(party)
        p["items"].extend(d.items)
        p["banks"].append((d.iban, d.account, d.bank_name, d.bic))
    return out


def number(rng: random.Random, lang: str, year: int) -> str:
    n = rng.randint(1, 99999)
    forms = [f"{n:05d}", f"INV-{year}-{n:04d}", f"{year}/{n % 1000:03d}", f"RE{year % 100}{n:05d}",
             f"FV/{year}/{rng.randint(1, 12):02d}/{n % 1000}", f"{n}-{rng.choice('ABCK')}",
             f"{rng.choice(['A', 'B', 'S'])}{n:06d}"]
    if lang in ("uk", "ru"):
        forms = [str(n % 10000), f"{n % 1000}/{year % 100}", f"СФ-{n % 10000}", f"{n:05d}"]
    return rng.choice(forms)


def random_doc(rng: random.Random, pool: dict, lang: str, name: str) -> g.Doc:
    p = pool[lang]
    seller, buyer = rng.sample(p["parties"], 2)
    year = rng.randint(2019, 2026)
    date = f"{year}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
    scale = D(rng.choice(["0.1", "0.5", "1", "1", "3", "10", "40"]))
    rates = {"en": [20, 5, 0], "de": [19, 7], "fr": [20, 10, 5.5], "pl": [23, 8, 5],
             "uk": [20, 7], "ru": [20, 10]}[lang]
    main_rate = D(str(rates[0]))
    items = []
    for base in rng.sample(p["items"], k=min(len(p["items"]), rng.randint(1, 9))):
        rate = main_rate if rng.random() < 0.8 else D(str(rng.choice(rates)))
        price = (base.price * scale * D(str(rng.uniform(0.5, 2.0)))).quantize(g.CENT)
        qty = D(rng.choice(["1", "2", "3", "5", "10", "0.5", "12", "2.5"]))
        items.append(g.Item(base.description, qty, base.unit, max(price, D("0.10")), rate))
    iban, account, bank_name, bic = rng.choice(p["banks"])
    kind = rng.choice(KINDS)
    if kind == "receipt":
        items = items[: rng.randint(1, 6)]
        for it in items:
            it.price = max((it.price / scale / D(rng.choice(["4", "10", "20"]))).quantize(g.CENT), D("0.20"))
    doc = g.Doc(
        name=name, lang=lang, kind=kind, number=number(rng, lang, year), date=date,
        date_style=rng.choice(STYLES[lang]), currency=p["currency"],
        seller=copy.deepcopy(seller), buyer=copy.deepcopy(buyer), items=items,
        iban=iban if rng.random() < 0.8 else None, account=account, bank_name=bank_name,
        bic=bic, signer_seller=rng.choice(["", "A. Nowak", "J. Smith", "K. Weber"]),
        signer_buyer=rng.choice(["", "M. Dubois", "O. Petrenko"]),
        doc_type={"invoice": "INVOICE", "credit_note": "CREDIT_NOTE", "act": "ACT",
                  "waybill": "WAYBILL", "receipt": "RECEIPT"}[kind],
    )
    return doc


def labels_for(lang: str, rng: random.Random, held_out: bool) -> dict:
    lab = copy.deepcopy(g.L[lang])
    for key, (train, hold) in VOCAB[lang].items():
        lab[key] = rng.choice(hold if held_out else train)
    return lab


class Labels:
    """Renders with a document's own label wordings (the fixture renderers read `g.L`)."""

    def __init__(self, lang: str, lab: dict):
        self.lang, self.lab = lang, lab

    def __enter__(self):
        self.saved = g.L[self.lang]
        g.L[self.lang] = self.lab

    def __exit__(self, *exc):
        g.L[self.lang] = self.saved


def meta_pairs(doc: g.Doc) -> list[tuple[str, str]]:
    lab = g.L[doc.lang]
    return [(lab["number"], doc.number), (lab["date"], g.date_text(doc.date, doc.date_style))]


def totals_block(p: g.Pen, doc: g.Doc, x: float, y: float, width: float, boxed: bool) -> float:
    top = y
    y = g.draw_totals(p, doc, x + 6, x + width - 6, y)
    if boxed:
        p.hline(x, x + width, top + 4, 0.8)
        p.hline(x, x + width, y + 6, 0.8)
        p.vline(x, top + 4, y + 6, 0.8)
        p.vline(x + width, top + 4, y + 6, 0.8)
    return y + 10


# Line-item tables: which columns are printed (the fixtures' table has them all).
TABLES = ["full", "compact", "gross"]
COMPACT_HEAD = {"en": ["Description", "Qty", "Price", "Amount"],
                "de": ["Artikel", "Anzahl", "Preis", "Summe"],
                "fr": ["Article", "Quantité", "Prix", "Total"],
                "pl": ["Towar", "Ilość", "Cena", "Wartość"],
                "uk": ["Товар", "Кількість", "Ціна", "Сума"],
                "ru": ["Товар", "Количество", "Цена", "Сумма"]}
GROSS_HEAD = {"en": "Gross", "de": "Brutto", "fr": "TTC", "pl": "Brutto", "uk": "З ПДВ",
              "ru": "С НДС"}


def draw_table(p: g.Pen, doc: g.Doc, x0: float, y: float, x1: float, variant: str) -> float:
    """A line-item table with one of the column sets of `TABLES`; returns the y below it."""
    if variant == "full":
        return g.draw_table(p, doc, x0, y, x1)
    lab = g.L[doc.lang]
    if variant == "compact":
        head = COMPACT_HEAD[doc.lang]
        cols = [x0, x0 + 250, x0 + 320, x0 + 400, x1]
    else:  # description, qty, unit price, VAT %, net, gross
        head = [lab["head"][1], lab["head"][2], lab["head"][4], lab["head"][5], lab["head"][6],
                GROSS_HEAD[doc.lang]]
        cols = [x0, x0 + 190, x0 + 230, x0 + 300, x0 + 340, x0 + 410, x1]
    p.hline(x0, x1, y, 0.8)
    y += 12
    for i, h in enumerate(head):
        if i == 0:
            p.text(cols[0] + 3, y, h, 7.5, bold=True)
        else:
            p.text(cols[i + 1] - 3, y, h, 7.5, bold=True, align="right")
    y += 5
    p.hline(x0, x1, y, 0.8)
    for it in doc.items:
        desc = g.wrap(it.description, 8.5, cols[1] - cols[0] - 6)
        y += 12
        for k, dl in enumerate(desc):
            p.text(cols[0] + 3, y + 11 * k, dl, 8.5)
        gross = (it.net * (100 + it.rate) / 100).quantize(g.CENT)
        if variant == "compact":
            vals = [g.qty_text(it.qty, doc.lang) + " " + g.unit_text(doc, it.unit),
                    g.money(it.price, doc.lang), g.money(it.net, doc.lang)]
        else:
            vals = [g.qty_text(it.qty, doc.lang), g.money(it.price, doc.lang),
                    f"{it.rate.normalize():f}", g.money(it.net, doc.lang), g.money(gross, doc.lang)]
        for i, v in enumerate(vals, 1):
            p.text(cols[i + 1] - 3, y, v, 8.5, align="right")
        y += 11 * (len(desc) - 1) + 5
        p.hline(x0, x1, y, 0.3)
    return y


def stamp_image(rng: random.Random, name: str, tax_line: str) -> "Image.Image":
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


def signatures(c, p: g.Pen, doc: g.Doc, x0: float, x1: float, y: float, rng: random.Random) -> float:
    """Signature lines with a scribble on them and, sometimes, the seller's stamp over them."""
    from reportlab.lib.utils import ImageReader

    end = g.draw_signatures(p, doc, x0, x1, y)
    line_y = y + 30
    for sx in ([x0 + 20] + ([x1 - 150] if doc.signer_buyer else [])):
        if rng.random() < 0.7:
            path = c.beginPath()
            px, py = sx, line_y - rng.uniform(2, 8)
            path.moveTo(px, p.h - py)
            for _ in range(rng.randint(4, 8)):
                nx, ny = px + rng.uniform(8, 22), line_y - rng.uniform(0, 18)
                path.curveTo(px + 4, p.h - (py - rng.uniform(-10, 10)), nx - 4,
                             p.h - (ny + rng.uniform(-10, 10)), nx, p.h - ny)
                px, py = nx, ny
            c.setLineWidth(rng.uniform(0.6, 1.2))
            c.drawPath(path, stroke=1, fill=0)
    if rng.random() < 0.5:
        img = stamp_image(rng, doc.seller.name, f"{doc.seller.tax_label} {doc.seller.tax_id}")
        side = rng.uniform(80, 110)
        sx = x0 + rng.uniform(60, 160)
        c.drawImage(ImageReader(img), sx, p.h - (line_y + side / 2), side, side, mask="auto")
    return end


def render_layout(doc: g.Doc, layout: str, two_pages: bool, rng: random.Random) -> bytes:
    """Invoice-like layouts: `classic` (the fixtures' renderer), `left`, `stacked` (training)
    and `boxed` (held out)."""
    import io

    from reportlab.lib.pagesizes import A4
    from reportlab.pdfgen import canvas

    if layout == "classic":
        return g.render_pdf(doc, page_split=two_pages)
    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=A4, invariant=1, pageCompression=1)
    w, h = A4
    p = g.Pen(c, w, h)
    x0, x1 = 50, w - 50
    lab = g.L[doc.lang]
    title = lab["titles"][doc.kind]
    table = rng.choice(TABLES)
    if layout == "left":
        p.text(x0, 70, title, 20, bold=True)
        y = 96
        for k, v in meta_pairs(doc):
            p.text(x0, y, f"{k} {v}", 10)
            y += 14
        ys = g.draw_party(p, x1 - 220, 60, lab["seller"], doc.seller, doc.lang)
        yb = g.draw_party(p, x0, y + 16, lab["buyer"], doc.buyer, doc.lang)
        y = max(ys, yb) + 16
        y = draw_table(p, doc, x0, y, x1, table)
        if two_pages:
            c.showPage()
            y = 60
        y = totals_block(p, doc, x0, y, 230, boxed=False)
    elif layout == "stacked":
        y = g.draw_party(p, x0, 60, lab["seller"], doc.seller, doc.lang)
        p.text(x1, 66, title, 17, bold=True, align="right")
        my = 92
        for k, v in meta_pairs(doc):
            p.text(x1 - 150, my, k, 8)
            p.text(x1 - 150, my + 13, v, 10, bold=True)
            my += 32
        y = g.draw_party(p, x0, max(y, my) + 10, lab["buyer"], doc.buyer, doc.lang) + 16
        y = draw_table(p, doc, x0, y, x1, table)
        if two_pages:
            c.showPage()
            y = 60
        y = totals_block(p, doc, x1 - 240, y, 240, boxed=rng.random() < 0.5)
    else:  # boxed
        p.text((x0 + x1) / 2, 60, title, 16, bold=True, align="center")
        y = g.draw_party(p, x0, 84, lab["seller"], doc.seller, doc.lang)
        yb = g.draw_party(p, x0 + 260, 84, lab["buyer"], doc.buyer, doc.lang)
        y = max(y, yb) + 14
        cols = [x0, x0 + 160, x0 + 320, x1]
        p.hline(x0, x1, y, 0.6)
        for i, (k, v) in enumerate(meta_pairs(doc)):
            p.text(cols[i] + 4, y + 10, k, 7.5)
            p.text(cols[i] + 4, y + 24, v, 10, bold=True)
        p.text(cols[2] + 4, y + 10, lab["due"], 7.5)
        p.hline(x0, x1, y + 30, 0.6)
        for cx in cols:
            p.vline(cx, y, y + 30, 0.6)
        y = draw_table(p, doc, x0, y + 44, x1, table)
        if two_pages:
            c.showPage()
            y = 60
        y = totals_block(p, doc, x0, y + 6, 250, boxed=True)
    if doc.iban or doc.account:
        y = g.draw_bank(p, doc, x1 - 230, y + 10) + 6
    signatures(c, p, doc, x0, x1, y, rng)
    c.showPage()
    c.save()
    return buf.getvalue()


def render_receipt(doc: g.Doc, layout: str, total_label: str, rng: random.Random) -> bytes:
    """Till receipts, 58-80 mm wide: `till` (training) or `slip` (held out). Prices are gross."""
    import io

    from reportlab.lib.units import mm
    from reportlab.pdfgen import canvas

    lang = doc.lang
    cur = g.L[lang]["currency_word"] or doc.currency
    dt = g.date_text(doc.date, rng.choice(["dmy_dot", "iso", "dmy_slash"] if lang != "en" else ["dmy_slash", "iso"]))
    time = f"{rng.randint(7, 21):02d}:{rng.randint(0, 59):02d}"
    rows: list[tuple[str, str, float, bool]] = []  # left, right, size, bold
    rows.append((doc.seller.name, "", 8.5, True))
    rows += [(a, "", 7.5, False) for a in doc.seller.address]
    rows.append((f"{doc.seller.tax_label} {doc.seller.tax_id}", "", 7.5, False))
    rows.append(("", "", 6, False))
    if layout == "till":
        rows.append((f"{RECEIPT_NO[lang]} {doc.number}", f"{dt} {time}", 7.5, False))
        rows.append(("--", "", 6, False))
    gross_total = D("0")
    for it in doc.items:
        gross = (it.price * (100 + it.rate) / 100).quantize(g.CENT)
        line = (gross * it.qty).quantize(g.CENT)
        gross_total += line
        if it.qty == 1:
            rows.append((it.description, g.money(line, lang), 7.5, False))
        else:
            rows.append((it.description, "", 7.5, False))
            rows.append((f"  {g.qty_text(it.qty, lang)} x {g.money(gross, lang)}", g.money(line, lang), 7.5, False))
    rows.append(("--", "", 6, False))
    vat_lines = vat_by_rate_gross(doc)
    if layout == "till":
        rows.append((f"{total_label} {cur}", g.money(gross_total, lang), 10, True))
        for rate, base, amount in vat_lines:
            rows.append((f"{RECEIPT_VAT[lang]} {rate.normalize():f}%", g.money(amount, lang), 7.5, False))
        rows.append((RECEIPT_NET[lang], g.money(gross_total - sum(a for _, _, a in vat_lines), lang), 7.5, False))
    else:
        rows.append((total_label, f"{cur} {g.money(gross_total, lang)}", 12, True))
        rows.append(("", "", 6, False))
        rows.append((f"{RECEIPT_VAT[lang]} %   {RECEIPT_NET[lang]}", RECEIPT_VAT[lang], 7, True))
        for rate, base, amount in vat_lines:
            rows.append((f"{rate.normalize():f}%   {g.money(base, lang)}", g.money(amount, lang), 7.5, False))
        rows.append(("", "", 6, False))
        rows.append((f"{RECEIPT_NO[lang]} {doc.number}", "", 7.5, False))
        rows.append((f"{dt} {time}", "", 7.5, False))
    rows.append(("", "", 6, False))
    rows.append((THANKS[lang], "", 7.5, False))
    width = rng.choice([58, 72, 80]) * mm
    height = sum(r[2] * 1.45 for r in rows) + 40
    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=(width, height), invariant=1, pageCompression=1)
    pen = g.Pen(c, width, height)
    y = 20.0
    for i, (left, right, size, bold) in enumerate(rows):
        y += size * 1.45
        if left == "--":
            pen.hline(6, width - 6, y - 3, 0.4)
            continue
        centred = not right and (i < len(doc.seller.address) + 2 or left == THANKS[lang])
        if centred:
            for k, part in enumerate(g.wrap(left, size, width - 12)):
                pen.text(width / 2, y + k * size * 1.2, part, size, bold=bold, align="center")
            y += (len(g.wrap(left, size, width - 12)) - 1) * size * 1.2
        else:
            pen.text(6, y, left[:40], size, bold=bold)
        if right:
            pen.text(width - 6, y, right, size, bold=bold, align="right")
    c.showPage()
    c.save()
    return buf.getvalue()


def vat_by_rate_gross(doc: g.Doc) -> list[tuple[D, D, D]]:
    """A receipt's VAT per rate, computed from the gross amounts it prints."""
    rates: dict = {}
    for it in doc.items:
        gross = ((it.price * (100 + it.rate) / 100).quantize(g.CENT) * it.qty).quantize(g.CENT)
        rates[it.rate] = rates.get(it.rate, D("0")) + gross
    out = []
    for r, gross in sorted(rates.items(), reverse=True):
        vat = (gross * r / (100 + r)).quantize(g.CENT)
        out.append((r, gross - vat, vat))
    return out


def write(out: pathlib.Path, doc: g.Doc, rng: random.Random, held_out: bool, pool_i: int) -> None:
    two_pages = False
    if doc.kind == "receipt":
        layout = "slip" if held_out else "till"
        total_label = rng.choice(RECEIPT_TOTAL[doc.lang][1 if held_out else 0])
        pdf = render_receipt(doc, layout, total_label, rng)
        lines = vat_by_rate_gross(doc)
        truth = g.receipt_truth_fix(doc, doc.truth())
        gross = sum(b + v for _, b, v in lines)
        truth["total"] = f"{gross:.2f}"
        truth["vat"] = f"{sum(v for _, _, v in lines):.2f}"
        vat_lines = [f"{v:.2f}" for _, _, v in lines]
    else:
        layout = rng.choice(["boxed"] if held_out else ["classic", "left", "stacked"])
        lab = labels_for(doc.lang, rng, held_out)
        two_pages = rng.random() < 0.15
        with Labels(doc.lang, lab):
            pdf = render_layout(doc, layout, two_pages, rng)
        truth = doc.truth()
        vat_lines = [f"{v:.2f}" for _, _, v in doc.vat_by_rate()]
    truth["synthetic"] = {"layout": layout, "held_out": held_out, "lang": doc.lang,
                          "pages": 2 if two_pages else 1, "vat_lines": vat_lines}
    if rng.random() < 1 / 3:
        dpi = rng.choice([150, 200, 300])
        pages = [g.scan_look(pg, seed=pool_i * 10 + k, angle=rng.uniform(-1.5, 1.5),
                             noise=rng.uniform(0.4, 1.0))
                 for k, pg in enumerate(g.rasterize(pdf, dpi))]
        if rng.random() < 0.4:
            if len(pages) == 1:
                (out / f"{doc.name}.png").write_bytes(g.png_bytes(g.to_bilevel(pages[0]), dpi=(dpi, dpi)))
            else:
                (out / f"{doc.name}.tiff").write_bytes(tiff_bytes([g.to_bilevel(pg) for pg in pages], dpi))
        else:
            q = rng.randint(35, 80)
            if len(pages) == 1:
                (out / f"{doc.name}.jpg").write_bytes(g.jpeg_bytes(pages[0], q, dpi))
            else:
                (out / f"{doc.name}.pdf").write_bytes(
                    g.image_pdf([(g.jpeg_bytes(pg, q, dpi), pg.size, dpi) for pg in pages]))
        truth["synthetic"]["scan_dpi"] = dpi
    else:
        (out / f"{doc.name}.pdf").write_bytes(pdf)
    (out / f"{doc.name}.truth.json").write_text(json.dumps(truth, ensure_ascii=False, indent=1) + "\n")


def tiff_bytes(pages: list, dpi: int) -> bytes:
    import io

    buf = io.BytesIO()
    pages[0].save(buf, "TIFF", compression="group4", save_all=True, append_images=pages[1:], dpi=(dpi, dpi))
    return buf.getvalue()


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--train", type=int, default=300)
    ap.add_argument("--holdout", type=int, default=90)
    ap.add_argument("--seed", type=int, default=20261125)
    a = ap.parse_args()
    g.register_fonts()
    pool = pools()
    langs = sorted(pool)
    rng = random.Random(a.seed)
    root = pathlib.Path(a.out)
    for split, n, held in (("train", a.train, False), ("holdout", a.holdout, True)):
        out = root / split
        out.mkdir(parents=True, exist_ok=True)
        for old in out.iterdir():
            old.unlink()
        for i in range(n):
            lang = langs[i % len(langs)]
            doc = random_doc(rng, pool, lang, f"{split}-{i:04d}-{lang}")
            write(out, doc, rng, held, i)
        print(f"{split}: {n} documents in {out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
