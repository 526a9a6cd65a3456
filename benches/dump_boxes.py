#!/usr/bin/env python3
"""The tuning part of a text-layer set (zugferd) as boxes files, the input `perturb_boxes.py`
turns into robustness sets: each document's words as `inspect --dump-boxes` prints them (each
page after a `#page W H` line, points scaled to pixels of a 288 dpi scan), with its truth.
Read through `accuracy --boxes`, the same words arrive as an OCR's would (source OCR, one word
per box, pixel units), so the clean dump already measures how the engine reads a perfect scan
of the page; `perturb_boxes.py KIND OUT --data DUMP --split SPLIT` makes it a worse one. Only
the tuning part is dumped (the frozen part stays unseen).

    cargo build -p folio-bench --bins
    python3 benches/dump_boxes.py OUT [--data ../shared/data/zugferd]
        [--split benches/splits/zugferd.json] [--inspect target/debug/inspect]
    target/debug/accuracy --boxes OUT
"""
import argparse
import json
import pathlib
import shutil
import subprocess
import sys


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out")
    ap.add_argument("--data", default="../shared/data/zugferd")
    ap.add_argument("--split", default="benches/splits/zugferd.json")
    ap.add_argument("--inspect", default="target/debug/inspect")
    a = ap.parse_args()
    split = json.loads(pathlib.Path(a.split).read_text())
    tune = sorted(k for k, v in split["documents"].items() if v["part"] == "tune")
    src, out = pathlib.Path(a.data), pathlib.Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    failed = 0
    for doc in tune:
        found = [p for p in src.glob(f"{doc}.*") if not p.name.endswith(".truth.json")]
        if len(found) != 1:
            print(f"{doc}: {len(found)} documents beside its truth", file=sys.stderr)
            failed += 1
            continue
        run = subprocess.run([a.inspect, "--dump-boxes", str(found[0])],
                             capture_output=True, text=True)
        if run.returncode != 0:
            print(f"{doc}: {run.stderr.strip()}", file=sys.stderr)
            failed += 1
            continue
        (out / f"{doc}.boxes.txt").write_text(run.stdout)
        shutil.copy(src / f"{doc}.truth.json", out / f"{doc}.truth.json")
    print(f"{len(tune) - failed} of {len(tune)} tuning documents in {out}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
