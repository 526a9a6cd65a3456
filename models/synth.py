"""Synthetic training and held-out documents for the learned field scorer, with exact truth.

    python models/synth.py OUT_DIR [--train N] [--holdout N] [--seed S]

Writes `OUT_DIR/train/` and `OUT_DIR/holdout/`, each `<id>.pdf|png|jpg` + `<id>.truth.json`
(the shared truth format). Invoices, credit notes, acts and waybills in en, de, fr, pl, uk, ru,
built from the fixture generator's parties, items and renderers (`fixtures/generate.py`) with
randomised content: numbers in several formats, dates in every style of the language, 1-9 line
items, amounts over four orders of magnitude, one or two VAT rates, optional bank block and
signatures, sometimes two pages. A third of the documents become degraded scans (150-300 DPI,
rotation up to 1.5 degrees, grain, blur, JPEG artefacts, some binarised).

The held-out set uses what training never sees:
* layout `boxed` (meta data in a ruled grid with labels above values, totals in a box at the
  left) where training has `classic` (the fixtures' layout) and `left` (meta block under a
  left-aligned title, parties side by side, totals left);
* label wordings: each language's number / date / net / VAT / total labels have training
  variants and held-out variants.
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
KINDS = ["invoice", "invoice", "invoice", "credit_note", "act", "waybill"]
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
    doc = g.Doc(
        name=name, lang=lang, kind=kind, number=number(rng, lang, year), date=date,
        date_style=rng.choice(STYLES[lang]), currency=p["currency"],
        seller=copy.deepcopy(seller), buyer=copy.deepcopy(buyer), items=items,
        iban=iban if rng.random() < 0.8 else None, account=account, bank_name=bank_name,
        bic=bic, signer_seller=rng.choice(["", "A. Nowak", "J. Smith", "K. Weber"]),
        signer_buyer=rng.choice(["", "M. Dubois", "O. Petrenko"]),
        doc_type={"invoice": "INVOICE", "credit_note": "CREDIT_NOTE", "act": "ACT",
                  "waybill": "WAYBILL"}[kind],
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


def render_layout(doc: g.Doc, layout: str, two_pages: bool) -> bytes:
    """`left` (training) or `boxed` (held out); `classic` is the fixtures' own renderer."""
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
    if layout == "left":
        p.text(x0, 70, title, 20, bold=True)
        y = 96
        for k, v in meta_pairs(doc):
            p.text(x0, y, f"{k} {v}", 10)
            y += 14
        ys = g.draw_party(p, x1 - 220, 60, lab["seller"], doc.seller, doc.lang)
        yb = g.draw_party(p, x0, y + 16, lab["buyer"], doc.buyer, doc.lang)
        y = max(ys, yb) + 16
        y = g.draw_table(p, doc, x0, y, x1)
        if two_pages:
            c.showPage()
            y = 60
        y = totals_block(p, doc, x0, y, 230, boxed=False)
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
        y = g.draw_table(p, doc, x0, y + 44, x1)
        if two_pages:
            c.showPage()
            y = 60
        y = totals_block(p, doc, x0, y + 6, 250, boxed=True)
    if doc.iban or doc.account:
        y = g.draw_bank(p, doc, x1 - 230, y + 10) + 6
    g.draw_signatures(p, doc, x0, x1, y)
    c.showPage()
    c.save()
    return buf.getvalue()


def write(out: pathlib.Path, doc: g.Doc, rng: random.Random, held_out: bool, pool_i: int) -> None:
    layouts = ["boxed"] if held_out else ["classic", "left"]
    layout = rng.choice(layouts)
    lab = labels_for(doc.lang, rng, held_out)
    with Labels(doc.lang, lab):
        pdf = render_layout(doc, layout, two_pages=rng.random() < 0.15)
    truth = doc.truth()
    truth["synthetic"] = {"layout": layout, "held_out": held_out, "lang": doc.lang}
    if rng.random() < 1 / 3:
        dpi = rng.choice([150, 200, 300])
        page = g.rasterize(pdf, dpi)[0]
        img = g.scan_look(page, seed=pool_i, angle=rng.uniform(-1.5, 1.5), noise=rng.uniform(0.4, 1.0))
        if rng.random() < 0.4:
            (out / f"{doc.name}.png").write_bytes(g.png_bytes(g.to_bilevel(img)))
        else:
            (out / f"{doc.name}.jpg").write_bytes(g.jpeg_bytes(img, rng.randint(35, 80), dpi))
        truth["synthetic"]["scan_dpi"] = dpi
    else:
        (out / f"{doc.name}.pdf").write_bytes(pdf)
    (out / f"{doc.name}.truth.json").write_text(json.dumps(truth, ensure_ascii=False, indent=1) + "\n")


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
