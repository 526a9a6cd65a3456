"""`Engine.recognize_many` against a sequential loop on scanned documents (issue 4).

    python many.py [ROUNDS]

The scanned fixtures (several pages of PNG, TIFF, JPEG, image PDF) repeated to 24 documents;
a sequential loop of `Engine.recognize` and `recognize_many(workers=2)`, alternated ROUNDS
times; prints both medians (seconds for all documents) and the throughput ratio.
"""

import os
import pathlib
import statistics
import sys
import time

import folio

root = pathlib.Path(__file__).resolve().parents[2] / "fixtures" / "docs"
scans = [
    "invoice_de_scan.png",
    "invoice_fr_scan.tiff",
    "invoice_ru_scan.png",
    "waybill_pl_scan.tiff",
    "receipt_en_scan.jpg",
    "invoice_en_scanpdf.pdf",
]
files = [str(root / s) for s in scans] * 4
rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 3
engine = folio.Engine()
for f in files[: len(scans)]:
    engine.recognize(f)  # warm-up: every language model loaded
seq, par = [], []
for _ in range(rounds):
    t = time.perf_counter()
    for f in files:
        engine.recognize(f)
    seq.append(time.perf_counter() - t)
    t = time.perf_counter()
    n = sum(1 for _ in engine.recognize_many(files, workers=2))
    par.append(time.perf_counter() - t)
    assert n == len(files)
s, p = statistics.median(seq), statistics.median(par)
print(
    f"{len(files)} scanned documents, {os.cpu_count()} CPUs, {rounds} rounds: sequential loop "
    f"median {s:.2f} s ({len(files) / s:.2f} docs/s), recognize_many(workers=2) median {p:.2f} s "
    f"({len(files) / p:.2f} docs/s): {s / p:.2f}x (target >= 1.8x)"
)
