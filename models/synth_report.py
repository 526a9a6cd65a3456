"""Where the engine is weak on the synthetic documents: field accuracy by family, language,
kind, scan / text layer and text noise.

    target/debug/accuracy OUT/holdout --json acc.json
    python models/synth_report.py acc.json [--by family,lang,kind,source,noise] [--min 3]

Reads the per-document outcomes of `accuracy --json` and each document's `synthetic` block
(from the truth file next to its input). A cell is correct / labelled (recall) in percent for the
key fields and the macro over the scored header fields present.
"""

from __future__ import annotations

import argparse
import collections
import json
import pathlib

FIELDS = ["number", "date", "seller_name", "buyer_name", "total", "vat", "seller_tax_id",
          "seller_address", "currency", "iban"]


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("json")
    ap.add_argument("--by", default="family,lang,kind,source,noise")
    ap.add_argument("--min", type=int, default=3, help="hide groups with fewer documents")
    a = ap.parse_args()
    data = json.loads(pathlib.Path(a.json).read_text())
    rows = []
    for doc in data["per_document"]:
        inp = pathlib.Path(doc["input"])
        truth = json.loads((inp.parent / f"{doc['id']}.truth.json").read_text())
        s = truth.get("synthetic", {})
        keys = {"family": s.get("family"), "lang": s.get("lang"), "kind": s.get("kind"),
                "source": "scan" if "scan_dpi" in s else "text", "noise": "noisy" if s.get("noise") else "clean"}
        outcome = {f["field"]: (f["labelled"], f["correct"]) for f in doc["fields"]}
        rows.append((keys, outcome))
    for by in a.by.split(","):
        groups: dict = collections.defaultdict(lambda: collections.defaultdict(lambda: [0, 0]))
        counts: collections.Counter = collections.Counter()
        for keys, outcome in rows:
            k = keys[by]
            counts[k] += 1
            for f in FIELDS:
                lab, cor = outcome.get(f, (0, 0))
                groups[k][f][0] += lab
                groups[k][f][1] += cor
        print(f"\nby {by}: recall % (correct / labelled)")
        print(f"{'':24s}{'docs':>5s}" + "".join(f"{f[:9]:>10s}" for f in FIELDS) + f"{'macro':>8s}")
        order = sorted(groups, key=lambda k: -counts[k])
        for k in order:
            if counts[k] < a.min:
                continue
            cells, vals = [], []
            for f in FIELDS:
                lab, cor = groups[k][f]
                if lab:
                    v = 100 * cor / lab
                    vals.append(v)
                    cells.append(f"{v:10.0f}")
                else:
                    cells.append(f"{'-':>10s}")
            macro = sum(vals) / len(vals) if vals else 0
            print(f"{str(k):24s}{counts[k]:5d}" + "".join(cells) + f"{macro:8.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
