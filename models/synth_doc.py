"""The synthetic document: content, printed arithmetic, printed text (with optional OCR noise),
and its truth.

Amounts follow the printed arithmetic exactly: line nets (after a line discount where printed)
add up per VAT rate to the bases, each rate's VAT is its base times the rate rounded to the
country's smallest unit, net + VAT = total, total + rounding - prepaid = payable. Receipts print
gross prices and take each rate's VAT out of its gross sum. Credit notes are either negative
throughout (every amount printed with a minus) or positive under a credit-note title, as the
country prints them; the truth keeps the printed sign.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal

import synth_vocab as sv
import synth_world as sw

D = Decimal

DOC_TYPE = {"invoice": "INVOICE", "credit_note": "CREDIT_NOTE", "act": "ACT", "waybill": "WAYBILL",
            "receipt": "RECEIPT"}
UNITS = {"en": "pcs|h|kg|m", "de": "Stk.|Std.|kg|m", "fr": "pce|h|kg|m", "pl": "szt.|godz.|kg|m",
         "uk": "шт.|год.|кг|м", "ru": "шт.|час|кг|м", "nl": "st.|uur|kg|m", "it": "pz|ore|kg|m",
         "es": "ud.|h|kg|m", "pt": "un.|h|kg|m", "cs": "ks|hod.|kg|m", "sk": "ks|hod.|kg|m",
         "lt": "vnt.|val.|kg|m", "lv": "gab.|st.|kg|m", "et": "tk|h|kg|m", "fi": "kpl|h|kg|m",
         "sv": "st|tim|kg|m", "da": "stk.|timer|kg|m", "hu": "db|óra|kg|m", "ro": "buc.|ore|kg|m"}
# Countries whose credit notes usually print negative amounts (the others: a positive
# document under a credit-note title); each prints the other way sometimes.
NEGATIVE_CREDIT = {"de", "nl", "da", "sv", "fi", "et", "lv", "lt", "cs", "sk", "pl", "hu", "ro",
                   "uk", "ru"}


@dataclass
class Line:
    desc: str
    qty: Decimal
    unit: str
    price: Decimal  # net unit price (gross on receipts)
    rate: Decimal
    disc: Decimal = D(0)  # line discount, percent

    def gross_amount(self, q: Decimal) -> Decimal:
        return (self.qty * self.price).quantize(q, rounding=ROUND_HALF_UP)

    def amount(self, q: Decimal) -> Decimal:
        a = self.qty * self.price * (100 - self.disc) / 100
        return a.quantize(q, rounding=ROUND_HALF_UP)


@dataclass
class Doc:
    name: str
    lang: str
    country: sw.Country
    kind: str
    held_out: bool
    number: str
    date: str
    due: str | None
    date_style: str
    fmt: str
    cur: str  # printed currency
    cur_pos: str  # suffix | prefix | glued | header
    seller: sw.Company
    buyer: sw.Company | None
    lines: list[Line]
    sign: int = 1
    prepaid: Decimal = D(0)
    rounding_step: Decimal = D(0)
    labels: dict = field(default_factory=dict)
    noise: float = 0.0  # probability that a printed amount / date carries OCR noise
    rng: random.Random = field(default_factory=random.Random)
    bank_iban: str | None = None
    account: str | None = None
    credit: str | None = None  # a credit note's printed sign: negative | positive
    vat_printed: bool = True
    reference: str | None = None  # a credit note's corrected invoice
    unknown_labels: bool = False  # field labels printed as pseudo-words (models/synth.py)
    payable_printed: bool = False  # a payable line printed although nothing was prepaid
    foreign: str | None = None  # invoiced in another currency than the seller's country's (ISO)
    buyer_iban: str | None = None  # the buyer's account printed in its block (direct debit)
    unprinted: set = field(default_factory=set)  # line-item columns the table does not print
    # Document-level charges and allowances between the rows' sum and the net (label, signed net
    # amount, rate): part of the bases and the net, no line item (models/synth_layouts.py).
    charges: list = field(default_factory=list)

    @property
    def currency(self) -> str:
        """The document's currency (ISO 4217)."""
        return self.foreign or self.country.currency

    @property
    def decimals(self) -> int:
        return 2 if self.foreign else self.country.decimals

    # --- arithmetic -------------------------------------------------------------------
    @property
    def q(self) -> Decimal:
        return D(1) if self.decimals == 0 else D("0.01")

    def line_amount(self, ln: Line) -> Decimal:
        return self.sign * ln.amount(self.q)

    def line_gross_before_disc(self, ln: Line) -> Decimal:
        return self.sign * ln.gross_amount(self.q)

    def by_rate(self) -> list[tuple[Decimal, Decimal, Decimal]]:
        """(rate, base, VAT) per rate, highest rate first. Receipts: (rate, net, VAT) out of
        the gross sums they print."""
        sums: dict = {}
        for ln in self.lines:
            sums[ln.rate] = sums.get(ln.rate, D(0)) + self.line_amount(ln)
        for _, amount, rate in self.charges:
            sums[rate] = sums.get(rate, D(0)) + amount
        out = []
        for r, s in sorted(sums.items(), reverse=True):
            if self.kind == "receipt":
                vat = (s * r / (100 + r)).quantize(self.q, rounding=ROUND_HALF_UP)
                out.append((r, s - vat, vat))
            else:
                out.append((r, s, (s * r / 100).quantize(self.q, rounding=ROUND_HALF_UP)))
        return out

    def items_sum(self) -> Decimal:
        """The rows' amounts added up (the net less the document-level charges)."""
        return sum((self.line_amount(ln) for ln in self.lines), D(0))

    def discount_total(self) -> Decimal:
        return sum((self.line_gross_before_disc(ln) - self.line_amount(ln) for ln in self.lines), D(0))

    def net(self) -> Decimal:
        return sum((b for _, b, _ in self.by_rate()), D(0))

    def vat(self) -> Decimal:
        return sum((v for _, _, v in self.by_rate()), D(0))

    def total(self) -> Decimal:
        return self.net() + self.vat()

    def rounding(self) -> Decimal:
        if not self.rounding_step:
            return D(0)
        t = self.total()
        r = (t / self.rounding_step).quantize(D(1), rounding=ROUND_HALF_UP) * self.rounding_step
        return r - t

    def payable(self) -> Decimal:
        return self.total() + self.rounding() - self.prepaid

    # --- printed text ----------------------------------------------------------------------
    def m(self, v: Decimal, cur: bool = True, noisy: bool = True) -> str:
        """An amount as printed: the document's number format, its currency placement, and
        (sometimes) OCR noise."""
        s = sw.money(v, self.fmt, self.decimals)
        if noisy and self.noise and self.rng.random() < self.noise:
            s = noise_amount(self.rng, s)
        if not cur or self.cur_pos == "header":
            return s
        if self.cur_pos == "prefix":
            return f"{self.cur} {s}" if len(self.cur) > 1 or s.startswith("-") else f"{self.cur}{s}"
        if self.cur_pos == "glued":
            return f"{s}{self.cur}"
        return f"{s} {self.cur}"

    def d(self, iso: str, style: str | None = None) -> str:
        s = sw.date_text(iso, style or self.date_style, self.lang)
        if self.noise and self.rng.random() < self.noise * 0.7:
            s = noise_date(self.rng, s)
        return s

    def qty(self, v: Decimal) -> str:
        s = f"{v.normalize():f}"
        return s if self.fmt.endswith(".") else s.replace(".", ",")

    def rate_text(self, r: Decimal) -> str:
        s = f"{r.normalize():f}"
        return (s if self.fmt.endswith(".") else s.replace(".", ",")) + "%"

    def lab(self, key: str, colon: bool = True) -> str:
        s = self.labels[key]
        return s + sv.colon(self.lang) if colon and not s.endswith(":") else s

    def title(self) -> str:
        return self.labels["t_" + self.kind]

    def document_type(self) -> str:
        """The Result's type code: an invoice titled as a tax invoice ("Tax Invoice", the
        Russian "счёт-фактура") is a TAX_INVOICE, as the engine's classifier decides
        (core/src/classify.rs); a Ukrainian "рахунок-фактура" stays an INVOICE."""
        title = self.title().lower().replace("ё", "е")
        if self.kind == "invoice" and ("tax invoice" in title or (self.lang == "ru" and "счет-фактура" in title)):
            return "TAX_INVOICE"
        return DOC_TYPE[self.kind]

    # --- truth -----------------------------------------------------------------------------
    def truth(self) -> dict:
        t: dict = {
            "document_type": self.document_type(),
            "number": self.number,
            "date": self.date,
            "seller_name": self.seller.name,
            "seller_address": ", ".join(self.seller.address),
            "seller_tax_id": self.seller.tax_id,
            "currency": self.currency,
            **({"buyer_iban": self.buyer_iban} if self.buyer_iban else {}),
            "total": f"{self.total():.2f}",
        }
        if self.vat_printed:
            t["vat"] = f"{self.vat():.2f}"
            t["net"] = f"{self.net():.2f}"
        if self.buyer is not None:
            t["buyer_name"] = self.buyer.name
        if self.due:
            t["due_date"] = self.due
        if self.bank_iban:
            t["iban"] = self.bank_iban
        if self.prepaid or self.rounding() or self.payable_printed:
            t["prepaid"] = f"{self.prepaid:.2f}"
            t["payable"] = f"{self.payable():.2f}"
        if self.kind != "receipt":
            units = {"pcs": 0, "h": 1, "kg": 2, "m": 3}
            t["line_items"] = [
                {"description": ln.desc, "quantity": f"{ln.qty:.2f}",
                 "unit": UNITS[self.lang].split("|")[units.get(ln.unit, 0)],
                 "unit_price": price_text(self.sign * ln.price), "vat_rate": f"{ln.rate:.2f}",
                 "line_total": f"{self.line_amount(ln):.2f}"}
                for ln in self.lines
            ]
            for row in t["line_items"]:
                for key in self.unprinted:
                    row[key] = None
        return t

    def unit_text(self, ln: Line) -> str:
        return UNITS[self.lang].split("|")[{"pcs": 0, "h": 1, "kg": 2, "m": 3}.get(ln.unit, 0)]


def price_text(v: Decimal) -> str:
    """A unit price as the truth keeps it: to the cent, or every decimal printed (a utility's
    `0.2845`; the scorer rounds both sides alike)."""
    return f"{v:.2f}" if v == v.quantize(D("0.01")) else f"{v.normalize():f}"


# ------------------------------------------------------------------------------------------
# OCR noise on printed text (the truth keeps the clean values)
# ------------------------------------------------------------------------------------------


def noise_amount(rng: random.Random, s: str) -> str:
    kind = rng.choice(["split_decimal", "spaced_digit", "o_for_0", "l_for_1", "split_decimal",
                       "comma_point"])
    digits = [i for i, ch in enumerate(s) if ch.isdigit()]
    if kind == "split_decimal":
        for i in range(len(s) - 1, 0, -1):
            if s[i] in ",." and i >= len(s) - 3:
                return s[: i + 1] + " " + s[i + 1:] if rng.random() < 0.7 else s[:i] + " " + s[i:]
        return s
    if kind == "spaced_digit" and len(digits) >= 3:
        i = rng.choice(digits[1:])
        return s[:i] + " " + s[i:]
    if kind == "o_for_0" and "0" in s:
        i = rng.choice([i for i, ch in enumerate(s) if ch == "0"])
        return s[:i] + rng.choice("OoD") + s[i + 1:]
    if kind == "l_for_1" and "1" in s:
        i = rng.choice([i for i, ch in enumerate(s) if ch == "1"])
        return s[:i] + rng.choice("lI|") + s[i + 1:]
    if kind == "comma_point":
        for i in range(len(s) - 1, 0, -1):
            if s[i] in ",." and i >= len(s) - 3:
                return s[:i] + ("." if s[i] == "," else ",") + s[i + 1:]
    return s


def noise_date(rng: random.Random, s: str) -> str:
    kind = rng.choice(["sep_space", "sep_comma", "o_for_0", "sep_space"])
    seps = [i for i, ch in enumerate(s) if ch in "./-"]
    if kind == "sep_space" and seps:
        i = rng.choice(seps)
        return s[: i + 1] + " " + s[i + 1:]
    if kind == "sep_comma" and seps:
        i = seps[-1]
        return s[:i] + ", " + s[i + 1:]
    if kind == "o_for_0" and "0" in s:
        i = rng.choice([i for i, ch in enumerate(s) if ch == "0"])
        return s[:i] + "O" + s[i + 1:]
    return s
