"""Synthetic training and held-out documents for the learned field scorer, with exact truth.

    python models/synth.py OUT_DIR [--train N] [--holdout N] [--seed S] [--unknown-labels]

Writes `OUT_DIR/train/` and `OUT_DIR/holdout/`, each `<id>.pdf|png|jpg|tiff` + `<id>.truth.json`
(the shared truth format, plus `due_date`, `net`, `prepaid` and `payable` where printed, and a
`synthetic` block: `family` (also as `layout`), `held_out`, `lang` (also as `language`),
`country`, `kind`, `pages`, `vat_lines` (the printed per-rate VAT amounts), `credit` (the sign a
credit note prints), `noise` (whether printed amounts and dates carry OCR-like text noise),
`scan_dpi` for scans). A fixed seed gives identical files (PDFs are written with reportlab's
invariant mode; scans are seeded).

What the documents hold (`synth_world.py`, `synth_vocab.py`, `synth_doc.py`, `synth_layouts.py`):
* 20 languages: en, de, fr, pl, uk, ru, nl, it, es, pt, cs, sk, lt, lv, et, fi, sv, da, hu, ro,
  each with its country (two for en: GB/IE; de: DE/AT; nl: NL/BE): currency (GBP, EUR, PLN,
  UAH, RUB, CZK, SEK, DKK, HUF without decimals, RON) printed as code or symbol, before or after
  the amount or once in a header; 12 % of the invoices, acts, waybills and credit notes are in
  another currency than the country's (EUR, USD, GBP or CHF, as code or symbol: exports); number formats (1,234.56 / 1.234,56 / 1 234,56 / no
  grouping); the country's date styles (numeric and the language's long form);
* companies with the country's legal forms (GmbH, AG, Ltd, B.V., SARL, S.r.l., S.L., Lda.,
  s.r.o., UAB, SIA, OÜ, Oy, AB, ApS, Kft., S.R.L., Sp. z o.o., ТОВ, ООО, ...), street and
  postcode formats, VAT ids with valid check digits where the engine checks the scheme, IBANs
  with valid mod-97 check digits (15 % of the documents with a buyer print the buyer's IBAN in
  its block, truth `buyer_iban`: a direct-debit account); names printed over two lines on some documents (the truth is
  the name joined by a space);
* invoices, credit notes (negative throughout, or positive under a credit-note title, per
  country practice; most name the invoice they correct), acts, waybills and receipts; 1-14
  line items, one to three VAT rates, line discounts, prepaid amounts and payable, cash rounding
  lines, payment and change on receipts, receipts without any VAT line (no VAT in their truth);
  signature scribbles and round stamps (images, not in the text layer);
* 51 layout families (`synth_layouts.FAMILIES`, listed in its docstring; 15 only in the held-out set);
* `--unknown-share P` prints every field label (amounts, number, dates, seller, buyer) of that
  share of the training documents as a pseudo-word (truth `synthetic.unknown_labels`; default 0);
* a third of the documents are degraded scans (150-300 DPI, rotation, grain, blur, JPEG, some
  binarised); a quarter carry text-level OCR noise on printed amounts and dates ("3. 38",
  spaced digits, O for 0, l for 1, a comma for the decimal point, separators in dates); the
  truth keeps the clean values.

`--unknown-labels` writes `OUT_DIR/train/` only (with `--with-holdout` also `OUT_DIR/holdout/`),
the same documents with every amount label
(net, VAT, total, payable, prepaid, a receipt's total) replaced by a pseudo-word: a tuning set
for what the structure and the arithmetic find without a known label. `--unknown-labels all`
replaces the number, date, due date, seller and buyer labels too (the titles stay).

`python models/synth_report.py acc.json` breaks `accuracy --json` figures down by family,
language, kind, scan / text layer and noise.

The held-out set differs from training in all three at once:
* layout family: `synth_layouts.HELD_OUT` (14 of the 48: ruled_meta_grid, footer_seller_grid,
  two_col_buyer_seller, window_right, totals_left_box, cis_title_grid, landscape_wide,
  multi_page_repeat, discount_rounding, waybill_cmr_boxes, credit_positive_box and the receipts
  slip, card_slip, restaurant) is never used in training, and training's 34 never in the
  held-out set;
* label wording: every label key of every language (titles, number, date, due date, net, VAT,
  total, payable, prepaid, discount, rounding, seller, buyer, receipt total) has training
  variants and held-out variants (`synth_vocab`, `train||held-out`); a document prints only its
  split's variants;
* language mix: `TRAIN_MIX` weights training towards en, de, fr (and the other large
  languages); the held-out set draws languages with the inverse weights, so lt, lv, et, sk,
  hu, ro, da, fi dominate it.
"""

from __future__ import annotations

import argparse
import datetime
import json
import pathlib
import random
import sys
from decimal import Decimal

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "fixtures"))
sys.path.insert(0, str(ROOT / "models"))
import generate as g  # noqa: E402
import synth_doc as sd  # noqa: E402
import synth_layouts as sl  # noqa: E402
import synth_vocab as sv  # noqa: E402
import synth_world as sw  # noqa: E402

D = Decimal
KINDS = ["invoice", "invoice", "invoice", "credit_note", "act", "waybill", "receipt", "receipt"]
TRAIN_MIX = {"en": 3, "de": 3, "fr": 3, "pl": 2, "uk": 2, "ru": 2, "nl": 2, "it": 2, "es": 2,
             "pt": 1.5, "cs": 1.5, "sv": 1.5, "da": 1, "fi": 1, "hu": 1, "ro": 1, "sk": 0.7,
             "lt": 0.5, "lv": 0.5, "et": 0.5}
HELD_MIX = {k: 1 / v for k, v in TRAIN_MIX.items()}
# Rough value of one euro in each currency, to keep prices plausible.
FX = {"EUR": 1, "GBP": 0.85, "PLN": 4.3, "UAH": 45, "RUB": 95, "CZK": 25, "SEK": 11.5,
      "DKK": 7.5, "HUF": 400, "RON": 5, "USD": 1.1, "CHF": 0.95}
# Invoices in a currency other than the seller's country's (exports, international services):
# printed as the code, or as its symbol; drawn from a stream of the document's own (its name),
# so that the other documents stay as they were.
FOREIGN_P = 0.12
FOREIGN = {"EUR": "€", "USD": "$", "GBP": "£", "CHF": "CHF"}
# Invoices that print the buyer's IBAN in its block (a direct-debit mandate's account), drawn
# from the same stream of the document's own.
BUYER_IBAN_P = 0.15
# Training documents whose field labels (amounts, number, dates, seller, buyer) are all
# pseudo-words (`unknown_labels(doc, "all")`), drawn from a stream of the document's own, never
# in the held-out set. Off by default: 0.15 was tried (2026-11-27, all three models retrained)
# and lowered the tuning set of unknown labels (seed 7, 300 documents, macro 92.3 -> 91.8, buyer
# 79.1 -> 77.3) and the one with known labels (96.7 -> 96.5).
UNKNOWN_SHARE = 0.0
# Cash rounding of receipts paid in cash, by currency.
CASH_STEP = {"SEK": D(1), "DKK": D("0.5"), "CZK": D(1), "HUF": D(5)}
CASH_STEP_LANG = {"fi": D("0.05"), "nl": D("0.05")}


def labels_for(lang: str, rng: random.Random, held_out: bool) -> dict:
    return {k: rng.choice(sv.split(lang, k, held_out)) for k in sv.SPLIT_KEYS}


def doc_number(rng: random.Random, lang: str, year: int, kind: str) -> str:
    n = rng.randint(1, 99999)
    mm = rng.randint(1, 12)
    forms = [f"{n:05d}", f"{year}-{n:05d}", f"{year}/{n % 1000:03d}", f"{n % 1000}/{year}",
             f"{rng.choice(['INV', 'RE', 'FA', 'F', 'R'])}-{year}-{n:04d}", f"{year % 100}{mm:02d}{n % 10000:04d}",
             f"{rng.choice('ABCKS')}{n:06d}"]
    per = {
        "pl": [f"FV/{year}/{mm:02d}/{n % 1000}", f"{n % 1000}/{mm:02d}/{year}", f"FS {n % 1000}/{year}"],
        "uk": [str(n % 10000), f"{n % 1000}/{year % 100}", f"СФ-{n % 10000}"],
        "ru": [str(n % 10000), f"{n % 1000}/{year % 100}", f"УТ-{n % 10000}"],
        "pt": [f"FT {year}/{n % 10000}", f"FT A/{n % 10000}", f"FR {year}A/{n % 1000}"],
        "es": [f"F{year}/{n % 10000:04d}", f"A-{n % 10000}", f"{year}-{n % 1000:03d}"],
        "it": [f"{n % 1000}/{year}", f"{n % 1000}/PA", f"FPR {n % 1000}/{year % 100}"],
        "fr": [f"FA{year}{mm:02d}-{n % 10000:04d}", f"F-{year}-{n % 10000:05d}"],
        "de": [f"RE{year}{n % 100000:05d}", f"R-{year}-{n % 10000:04d}"],
        "cs": [f"{year}{n % 100000:05d}", f"FV{year % 100}{n % 10000:04d}"],
        "sk": [f"{year}{n % 100000:05d}", f"OF{year % 100}{n % 10000:04d}"],
        "lt": [f"{rng.choice(['ABC', 'VLN', 'KNS'])}{n % 100000:05d}", f"SF{n % 100000:05d}"],
        "lv": [f"RĒĶ-{n % 10000}", f"SIA{n % 100000:05d}"],
        "hu": [f"{rng.choice(['SZLA', 'KSZ', 'E'])}-{year}-{n % 10000}", f"{year}/{n % 100000:05d}"],
        "ro": [f"BV {n % 10000:04d}", f"FCT{n % 100000:05d}"],
    }.get(lang, [])
    if kind == "receipt":
        forms = [f"{n % 10000:04d}", f"{rng.randint(1, 9)}/{n % 10000:04d}", f"{n:06d}"]
        per = []
    return rng.choice(forms + per * 2)


def random_doc(rng: random.Random, lang: str, kind: str, family: str, held_out: bool, name: str) -> sd.Doc:
    c = sw.country(rng, lang)
    fam = sl.FAMILIES[family]
    seller = sw.make_company(rng, c, two_line_p=0.25)
    buyer = None
    if kind != "receipt":
        bc = c if rng.random() < 0.8 else sw.country(rng, rng.choice(sv.LANGS))
        buyer = sw.make_company(rng, bc, two_line_p=0.15)
    year = rng.randint(2019, 2026)
    start = datetime.date(year, rng.randint(1, 12), rng.randint(1, 28))
    due = None
    if kind in ("invoice", "credit_note") and rng.random() < 0.55:
        due = (start + datetime.timedelta(days=rng.choice([7, 10, 14, 30, 45, 60]))).isoformat()
    frng = random.Random(f"{name}/currency")
    foreign = None
    if kind != "receipt" and frng.random() < FOREIGN_P:
        foreign = frng.choice([x for x in FOREIGN if x != c.currency])
    fx = D(str(FX[foreign or c.currency]))
    q = D(1) if c.decimals == 0 and not foreign else D("0.01")
    rates = [D(r) for r in c.rates]
    lines = []
    if kind == "receipt":
        for desc in rng.sample(c.food, k=rng.randint(1, min(6, len(c.food)))):
            price = (D(str(rng.uniform(0.4, 12))) * fx).quantize(q)
            rate = rates[-1] if len(rates) > 1 and rng.random() < 0.6 else rates[0]
            qty = D(rng.choice(["1", "1", "1", "2", "3", "0.5", "1.25"]))
            lines.append(sd.Line(desc, qty, "kg" if qty % 1 else "pcs", max(price, q), rate))
    else:
        scale = D(rng.choice(["0.2", "1", "1", "3", "10", "40"]))
        n_items = rng.randint(8, 14) if fam.get("pages") == "multi" else rng.randint(1, 9)
        pool = list(c.items)
        for i in range(n_items):
            desc = pool[i % len(pool)] if i < len(pool) else f"{rng.choice(pool)} ({i + 1})"
            price = (D(str(rng.uniform(2, 300))) * scale * fx).quantize(q)
            rate = rates[0] if rng.random() < 0.8 else rng.choice(rates)
            qty = D(rng.choice(["1", "2", "3", "5", "10", "0.5", "12", "2.5", "40"]))
            disc = D(rng.choice(["5", "10", "15", "20"])) if (fam.get("discount") or rng.random() < 0.08) and rng.random() < 0.6 else D(0)
            lines.append(sd.Line(desc, qty, rng.choice(["pcs", "pcs", "h", "kg", "m"]), max(price, q), rate, disc))
    sign = 1
    credit = None
    if kind == "credit_note":
        want_neg = lang in sd.NEGATIVE_CREDIT
        if rng.random() < 0.2:
            want_neg = not want_neg
        if fam.get("credit"):
            want_neg = fam["credit"] == "neg"
        sign = -1 if want_neg else 1
        credit = "negative" if want_neg else "positive"
    cur = rng.choice(c.cur_print)
    if foreign:
        cur = foreign if frng.random() < 0.7 else FOREIGN[foreign]
    cur_pos = "suffix"
    if cur in ("£", "€") and (lang in ("en", "nl") or rng.random() < 0.3):
        cur_pos = "prefix"
    elif len(cur) == 3 and rng.random() < 0.3:
        cur_pos = "prefix"
    if kind != "receipt" and rng.random() < 0.12:
        cur_pos = "header"
    noise = 0.35 if rng.random() < 0.25 else 0.0
    if noise and rng.random() < 0.3 and cur_pos == "suffix":
        cur_pos = "glued"
    doc = sd.Doc(
        name=name, lang=lang, country=c, kind=kind, held_out=held_out,
        number=doc_number(rng, lang, year, kind), date=start.isoformat(), due=due,
        date_style=rng.choice(c.date_styles[:2] if rng.random() < 0.7 else c.date_styles),
        fmt=rng.choice(c.money_fmts), cur=cur, cur_pos=cur_pos, seller=seller, buyer=buyer,
        lines=lines, sign=sign, labels=labels_for(lang, rng, held_out), noise=noise,
        rng=random.Random(rng.getrandbits(32)), foreign=foreign,
    )
    if kind != "receipt" and seller.iban and rng.random() < 0.75:
        doc.bank_iban = seller.iban
    if buyer is not None and buyer.iban and buyer.iban != seller.iban and frng.random() < BUYER_IBAN_P:
        doc.buyer_iban = buyer.iban
    if c.cc == "RU" and kind != "receipt" and rng.random() < 0.8:
        doc.account = sw.bank_account_ru(rng)
    if kind in ("invoice",) and (fam.get("prepaid") or rng.random() < 0.1):
        doc.prepaid = (doc.total() * D(rng.choice(["0.3", "0.5", "0.2"]))).quantize(D(1) * (10 if doc.total() > 1000 else 1))
    if kind == "receipt" and rng.random() < 0.5:
        doc.rounding_step = CASH_STEP.get(c.currency, CASH_STEP_LANG.get(lang, D(0)))
    if fam.get("rounding") and rng.random() < 0.8:
        doc.rounding_step = D(1) if doc.decimals == 0 or doc.currency == "CZK" else D("0.05")
    doc.credit = credit
    if kind == "credit_note" and rng.random() < 0.6:
        doc.reference = doc_number(rng, lang, year, "invoice")
    return doc


def tiff_bytes(pages: list, dpi: int) -> bytes:
    import io

    buf = io.BytesIO()
    pages[0].save(buf, "TIFF", compression="group4", save_all=True, append_images=pages[1:], dpi=(dpi, dpi))
    return buf.getvalue()




def choose_family(rng: random.Random, kind: str, held_out: bool) -> str:
    names = sl.families_for(kind, held_out)
    special = [n for n in names if sl.FAMILIES[n].get("form") or sl.FAMILIES[n].get("credit")]
    if kind in ("act", "waybill", "credit_note") and special and rng.random() < (0.3 if kind == "credit_note" else 0.5):
        return rng.choice(special)
    generic = [n for n in names if n not in special and not (set(sl.FAMILIES[n]["kinds"]) - {kind} and len(sl.FAMILIES[n]["kinds"]) == 1)]
    return rng.choice(generic or names)


def page_count(pdf: bytes) -> int:
    import pypdfium2 as pdfium

    d = pdfium.PdfDocument(pdf)
    n = len(d)
    d.close()
    return n


def write(out: pathlib.Path, doc: sd.Doc, family: str, rng: random.Random, seq: int) -> None:
    if doc.kind == "receipt":
        pdf = sl.render_receipt(doc, family, rng)
    else:
        pdf = sl.render_invoice(doc, family, rng)
    truth = doc.truth()
    pages = page_count(pdf)
    truth["synthetic"] = {
        "family": family, "layout": family, "held_out": doc.held_out, "lang": doc.lang,
        "language": doc.lang, "country": doc.country.cc, "kind": doc.kind, "pages": pages,
        "vat_lines": [f"{v:.2f}" for _, _, v in doc.by_rate()] if doc.vat_printed else [],
        "noise": bool(doc.noise), "unknown_labels": doc.unknown_labels,
    }
    if doc.credit:
        truth["synthetic"]["credit"] = doc.credit
    if rng.random() < 1 / 3:
        dpi = rng.choice([150, 200, 300]) if doc.kind != "receipt" else rng.choice([200, 300])
        pages_img = [g.scan_look(pg, seed=seq * 10 + k, angle=rng.uniform(-1.5, 1.5),
                                 noise=rng.uniform(0.4, 1.0))
                     for k, pg in enumerate(g.rasterize(pdf, dpi))]
        if rng.random() < 0.4:
            if len(pages_img) == 1:
                (out / f"{doc.name}.png").write_bytes(g.png_bytes(g.to_bilevel(pages_img[0]), dpi=(dpi, dpi)))
            else:
                (out / f"{doc.name}.tiff").write_bytes(tiff_bytes([g.to_bilevel(pg) for pg in pages_img], dpi))
        else:
            q = rng.randint(35, 80)
            if len(pages_img) == 1:
                (out / f"{doc.name}.jpg").write_bytes(g.jpeg_bytes(pages_img[0], q, dpi))
            else:
                (out / f"{doc.name}.pdf").write_bytes(
                    g.image_pdf([(g.jpeg_bytes(pg, q, dpi), pg.size, dpi) for pg in pages_img]))
        truth["synthetic"]["scan_dpi"] = dpi
    else:
        (out / f"{doc.name}.pdf").write_bytes(pdf)
    (out / f"{doc.name}.truth.json").write_text(json.dumps(truth, ensure_ascii=False, indent=1) + "\n")


# The amount labels `--unknown-labels` replaces with words no vocabulary knows; `--unknown-labels
# all` also the header and party labels (number, dates, seller, buyer: the document titles stay,
# they name the document type).
AMOUNT_LABELS = ("net", "vat", "total", "payable", "prepaid", "receipt_total")
HEADER_LABELS = ("number", "date", "due", "seller", "buyer")


def pseudo_word(rng: random.Random) -> str:
    """A pronounceable word of no language (`Tavoru`): a label the engine cannot know."""
    syllables = [rng.choice("bdfgkmprstvz") + rng.choice("aeiou") for _ in range(rng.randint(2, 3))]
    return "".join(syllables).capitalize()


def unknown_labels(doc: sd.Doc, which: str) -> None:
    """Replaces the document's amount labels (`which` = "amounts") or all its field labels
    ("all") with pseudo-words, from a stream of its own (its name), so that every other draw stays
    as it was."""
    rng = random.Random(f"unknown-labels/{doc.name}")
    for key in AMOUNT_LABELS:
        doc.labels[key] = pseudo_word(rng) + ":" * (rng.random() < 0.5)
    if which == "all":
        for key in HEADER_LABELS:
            if key in doc.labels:
                doc.labels[key] = pseudo_word(rng)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--train", type=int, default=300)
    ap.add_argument("--holdout", type=int, default=90)
    ap.add_argument("--seed", type=int, default=20261125)
    ap.add_argument("--unknown-share", type=float, default=UNKNOWN_SHARE,
                    help="share of training documents printed with pseudo-word labels")
    ap.add_argument("--unknown-labels", nargs="?", const="amounts", choices=("amounts", "all"),
                    help="amount labels (net, VAT, total, payable, prepaid) become pseudo-words, "
                         "with `all` also number, dates, seller and buyer: a tuning set for what "
                         "the structure alone finds; writes OUT/train only")
    ap.add_argument("--with-holdout", action="store_true",
                    help="with --unknown-labels, also write OUT/holdout: the held-out documents "
                         "(the same as without the flag, same seed) with pseudo-word labels, "
                         "which measure the held-out layout families without any label wording")
    ap.add_argument("--hard-tables", action="store_true",
                    help="tables of the full shape print an article number column, names over "
                         "two lines and sub-lines with numbers (synth_layouts.HARD_TABLES): a "
                         "tuning set for line items")
    ap.add_argument("--table-extras", action="store_true",
                    help="tables of the full shape also print a discount column, no header row, "
                         "or quantities and prices to three or four decimals "
                         "(synth_layouts.TABLE_EXTRAS): a tuning set for line items")
    ap.add_argument("--table-forms", action="store_true",
                    help="tables of the full shape print only a position, a description over "
                         "one or more lines and its amount, or the rate right of the amount "
                         "(synth_layouts.TABLE_FORMS): a tuning set for line items")
    ap.add_argument("--table-groups", action="store_true",
                    help="tables of the full shape align numbers to the middle or last line of "
                         "a row, print detail lines, discount sub-lines and rows in titled groups "
                         "with subtotals (synth_layouts.TABLE_GROUPS): a tuning set for line items")
    ap.add_argument("--table-vendor", action="store_true",
                    help="tables of the full shape print as shops (unit prices without and with "
                         "VAT, amounts with VAT) and as hotels and service vendors (the day of the "
                         "service first on each row) print them (synth_layouts.TABLE_VENDOR): a "
                         "tuning set for line items")
    ap.add_argument("--table-folio", action="store_true",
                    help="tables of the full shape print as a hotel's folio (the day first, "
                         "amounts with VAT, the guest's payment as a row, a zero balance) "
                         "(synth_layouts.TABLE_FOLIO): a tuning set for line items and totals")
    ap.add_argument("--table-charges", action="store_true",
                    help="invoices print document-level charges and allowances between the rows' "
                         "sum and the net (shipping, packaging, a discount on the total) and, "
                         "sometimes, a returned row with a negative quantity "
                         "(synth_layouts.TABLE_CHARGES): a tuning set for line items and totals")
    ap.add_argument("--table-utility", action="store_true",
                    help="invoices' tables print as a utility's bill (meter readings above the "
                         "rows, consumption in whole units, unit prices to four decimals, the "
                         "billing period) (synth_layouts.TABLE_UTILITY): a tuning set for line items")
    ap.add_argument("--table-order", action="store_true",
                    help="tables of the full shape print the unit price left of the quantity, some "
                         "under no header (synth_layouts.TABLE_ORDER): a tuning set for line items")
    ap.add_argument("--table-schedule", action="store_true",
                    help="invoices print a payment schedule (instalments with due dates) and the "
                         "account's open items (earlier invoices, the balance) after the totals "
                         "(synth_layouts.TABLE_SCHEDULE): a tuning set for line items and totals")
    ap.add_argument("--table-cards", action="store_true",
                    help="tables of the full shape print each item as a block of `Key: value` "
                         "lines under `Position 1` (synth_layouts.TABLE_CARDS): a tuning set for "
                         "line items")
    a = ap.parse_args()
    sl.TABLE_CARDS = a.table_cards
    sl.TABLE_SCHEDULE = a.table_schedule
    sl.TABLE_ORDER = a.table_order
    sl.TABLE_UTILITY = a.table_utility
    sl.TABLE_CHARGES = a.table_charges
    sl.TABLE_FOLIO = a.table_folio
    sl.TABLE_VENDOR = a.table_vendor
    sl.TABLE_GROUPS = a.table_groups
    sl.HARD_TABLES = a.hard_tables
    sl.TABLE_FORMS = a.table_forms
    sl.TABLE_EXTRAS = a.table_extras
    g.register_fonts()
    sv.check()
    rng = random.Random(a.seed)
    root = pathlib.Path(a.out)
    splits = (("train", a.train, False), ("holdout", a.holdout, True))
    for split, n, held in splits[:1] if a.unknown_labels and not a.with_holdout else splits:
        out = root / split
        out.mkdir(parents=True, exist_ok=True)
        for old in out.iterdir():
            old.unlink()
        mix = HELD_MIX if held else TRAIN_MIX
        langs = sorted(mix)
        for i in range(n):
            lang = rng.choices(langs, weights=[mix[x] for x in langs])[0]
            kind = rng.choice(KINDS)
            family = choose_family(rng, kind, held)
            doc = random_doc(rng, lang, kind, family, held, f"{split}-{i:04d}-{lang}")
            if a.unknown_labels:
                unknown_labels(doc, a.unknown_labels)
                doc.unknown_labels = True
            elif not held and random.Random(f"unknown-share/{doc.name}").random() < a.unknown_share:
                unknown_labels(doc, "all")
                doc.unknown_labels = True
            write(out, doc, family, rng, i + (100000 if held else 0))
        print(f"{split}: {n} documents in {out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
