"""`Engine.recognize_many` against a sequential loop on scanned documents (issue 4).

    python many.py [ROUNDS]

Two sets, each repeated to 24 documents, each timed as a sequential loop of `Engine.recognize`
and as `recognize_many(workers=2)`, alternated ROUNDS times after a warm-up; prints the medians
(seconds for all documents) and the throughput ratio.

* single-page scans (PNG, TIFF, JPEG, image-only PDF; de/fr/ru/en): the target set;
* the same with a two-page TIFF: the sequential loop already reads that document's two pages
  on both cores, so the ceiling is lower.
"""

import os
import pathlib
import statistics
import subprocess
import sys
import time

import folio

root = pathlib.Path(__file__).resolve().parents[2] / "fixtures" / "docs"
SINGLE = [
    "invoice_de_scan.png",
    "invoice_fr_scan.tiff",
    "invoice_ru_scan.png",
    "receipt_en_scan.jpg",
    "invoice_en_scanpdf.pdf",
    "invoice_de_scan.png",
]
MIXED = SINGLE[:5] + ["waybill_pl_scan.tiff"]


def measure(engine: folio.Engine, names: list, rounds: int) -> tuple:
    files = [str(root / n) for n in names] * 4
    for f in files[: len(names)]:
        engine.recognize(f)  # warm-up: every language model loaded on this thread
    for _ in engine.recognize_many(files[: len(names)], workers=2):
        pass  # ... and on the pool's threads
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
    return len(files), statistics.median(seq), statistics.median(par)


if __name__ == "__main__":
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    engine = folio.Engine()
    for label, names in (("single-page scans", SINGLE), ("with a 2-page TIFF", MIXED)):
        n, s, p = measure(engine, names, rounds)
        print(
            f"{label}: {n} documents, {os.cpu_count()} CPUs, {rounds} rounds: sequential loop "
            f"median {s:.2f} s ({n / s:.2f} docs/s), recognize_many(workers=2) median {p:.2f} s "
            f"({n / p:.2f} docs/s): {s / p:.2f}x"
        )
