#!/usr/bin/env python3
"""Robustness sets made from the SROIE *tuning* part's OCR lines (issue 14: "candidates robust
to OCR noise"): the same receipts, their lines read as a worse OCR or a skewed scan would read
them, with the same truth. A rule that only fits the clean lines loses here; one that reads what
the receipt means does not. Only the tuning part is ever perturbed (the frozen part stays
unseen).

    python3 benches/perturb_boxes.py KIND OUT [--data ../shared/data/sroie]
        [--split benches/splits/sroie.json] [--seed S]
    target/debug/accuracy --boxes --split benches/splits/sroie.json --part tune OUT

KIND:
  noise[P]    each word of 4+ letters, with probability P (default 0.15), gets one OCR slip: a
              look-alike digit (O->0, L/I/l/i->1, S->5, B->8, o->0), a space inside it, or a
              dropped letter
  skew[A]     every box moved down by A (default 0.03) times its centre's x: a page scanned
              turned by about A radians, its boxes still level
  droplabel   each label box (no digit) naming TOTAL, AMOUNT or ROUND lost with probability 0.5
  amtnoise    each amount, with probability 0.3, misread once (0->O, 1->l, 5->S, a comma for
              the point, a space after it)
  dropline[P] each box lost with probability P (default 0.1): an OCR that misses a line or a
              piece of one, the total's own line among them
  merge       boxes of one line joined into one box
  wordsplit   every box split into one box per word
  joinpages   the pages joined into one long page (no `#page` marks; each page's boxes moved
              down by the heights of the pages above it): a document printed or scanned as one
              tall page, as a web shop's invoice saved as a single page
  nohead      the line-item table's header lost: every text line (boxes whose vertical
              centres fall within one another's box) with two or more column-header words
              (position, description, quantity, unit, price, rate, amount, in de/en/fr/nl/...)
              and no digit is removed: tables read without a header

Deterministic: each document's random stream is seeded by KIND, the seed and its id.
"""
import argparse
import json
import pathlib
import random
import re
import shutil
import sys

AMOUNT = re.compile(r"^(RM\s?)?-?\d{1,6}[.,]\d{2}$")
HEADER_WORDS = re.compile(
    r"\b(pos(ition)?|nr|art(ikel)?(-?nr)?|beschreibung|bezeichnung|leistung|description|item|"
    r"menge|anzahl|qty|quantity|einheit|unit|me|preis|einzelpreis|nettopreis|price|"
    r"ust|mwst|steuersatz|vat|tax|betrag|nettobetrag|gesamt|amount|total|rabatt|discount|"
    r"désignation|quantité|prix|montant|omschrijving|aantal|prijs|bedrag)\b",
    re.IGNORECASE)
LOOK_ALIKE = {"O": "0", "L": "1", "I": "1", "S": "5", "B": "8", "l": "1", "i": "1", "o": "0"}


PAGE_MARK = "#page"


def read_pages(path: pathlib.Path):
    """The boxes of a file page by page: [(mark line or None, rows)], a `#page W H` line
    starting each page (SROIE files have none: one page without a mark)."""
    pages = [(None, [])]
    for line in path.read_text(errors="replace").splitlines():
        if line.startswith(PAGE_MARK):
            pages.append((line, []))
            continue
        parts = line.split(",", 8)
        try:
            coords = list(map(int, parts[:8]))
        except ValueError:
            continue
        if len(parts) == 9:
            pages[-1][1].append((coords, parts[8]))
    return [p for p in pages if p[0] is not None or p[1]]


def ocr_slip(word: str, rng: random.Random) -> str:
    op = rng.choice(["glyph", "split", "drop"])
    if op == "glyph":
        spots = [(k, c) for k, c in enumerate(word) if c in LOOK_ALIKE]
        if not spots:
            return word
        k, c = rng.choice(spots)
        return word[:k] + LOOK_ALIKE[c] + word[k + 1:]
    k = rng.randrange(1, len(word)) if op == "split" else rng.randrange(len(word))
    return word[:k] + " " + word[k:] if op == "split" else word[:k] + word[k + 1:]


def perturb(rows, kind: str, arg: float | None, rng: random.Random):
    out = []
    for coords, text in rows:
        c = list(coords)
        if kind == "noise":
            p = 0.15 if arg is None else arg
            text = re.sub(r"[A-Za-z]{4,}",
                          lambda m: ocr_slip(m.group(0), rng) if rng.random() < p else m.group(0),
                          text)
        elif kind == "skew":
            a = 0.03 if arg is None else arg
            dy = int(a * (c[0] + c[2]) / 2)
            c = [v + dy if k % 2 else v for k, v in enumerate(c)]
        elif kind == "droplabel":
            if (re.search(r"TOTAL|AMOUNT|ROUND", text.upper()) and not re.search(r"\d", text)
                    and rng.random() < 0.5):
                continue
        elif kind == "dropline":
            if rng.random() < (0.1 if arg is None else arg):
                continue
        elif kind == "amtnoise":
            if AMOUNT.match(text.strip()) and rng.random() < 0.3:
                text = rng.choice([text.replace("0", "O", 1), text.replace(".", ",", 1),
                                   text.replace(".", ". ", 1), text.replace("1", "l", 1),
                                   text.replace("5", "S", 1)])
        out.append((c, text))
    if kind == "nohead":
        drop = set()
        for i, (c, _) in enumerate(out):
            cy = (c[1] + c[5]) / 2
            line = [j for j, (d, _) in enumerate(out) if d[1] <= cy <= d[5]]
            text = " ".join(out[j][1] for j in line)
            if len(HEADER_WORDS.findall(text)) >= 2 and not re.search(r"\d", text):
                drop.add(i)
        out = [r for i, r in enumerate(out) if i not in drop]
    if kind == "merge":
        out.sort(key=lambda r: ((r[0][1] + r[0][5]) / 2, r[0][0]))
        merged = []
        for c, t in out:
            if merged:
                mc, mt = merged[-1]
                cy = (c[1] + c[5]) / 2
                if mc[1] <= cy <= mc[5] and 0 < c[0] - mc[2] < 400:
                    y0, y1 = min(mc[1], c[1]), max(mc[5], c[5])
                    merged[-1] = ([mc[0], y0, c[2], y0, c[2], y1, mc[0], y1], mt + " " + t)
                    continue
            merged.append((c, t))
        out = merged
    elif kind == "wordsplit":
        split = []
        for c, t in out:
            n, w, at = max(len(t), 1), c[2] - c[0], 0
            for word in t.split(" "):
                if word:
                    a, b = c[0] + w * at // n, c[0] + w * (at + len(word)) // n
                    split.append(([a, c[1], b, c[3], b, c[5], a, c[7]], word))
                at += len(word) + 1
        out = split
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("kind")
    ap.add_argument("out")
    ap.add_argument("--data", default="../shared/data/sroie")
    ap.add_argument("--split", default="benches/splits/sroie.json")
    ap.add_argument("--seed", default="0")
    a = ap.parse_args()
    m = re.fullmatch(r"(noise|skew|droplabel|dropline|amtnoise|merge|wordsplit|nohead|joinpages)(-?[0-9.]+)?", a.kind)
    if not m:
        ap.error(f"unknown kind {a.kind}")
    kind, arg = m.group(1), float(m.group(2)) if m.group(2) else None
    split = json.loads(pathlib.Path(a.split).read_text())
    tune = sorted(k for k, v in split["documents"].items() if v["part"] == "tune")
    src, out = pathlib.Path(a.data), pathlib.Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    for doc in tune:
        rng = random.Random(f"{a.kind}/{a.seed}/{doc}")
        lines = []
        top = 0
        for mark, rows in read_pages(src / f"{doc}.boxes.txt"):
            if kind == "joinpages":
                lines += [",".join(str(v + top if k % 2 else v) for k, v in enumerate(c)) + "," + t
                          for c, t in rows]
                dims = mark.split()[1:] if mark else []
                top += int(float(dims[1])) if len(dims) == 2 else max((c[5] for c, _ in rows), default=0)
                continue
            lines += [mark] if mark else []
            lines += [",".join(map(str, c)) + "," + t for c, t in perturb(rows, kind, arg, rng)]
        (out / f"{doc}.boxes.txt").write_text("\n".join(lines) + "\n")
        shutil.copy(src / f"{doc}.truth.json", out / f"{doc}.truth.json")
    print(f"{a.kind}: {len(tune)} tuning documents in {out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
