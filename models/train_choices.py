#!/usr/bin/env python3
"""Trains the choice model (models/choices.onnx): the document's currency, its type, and the
party each IBAN belongs to.

Rows come from `export_features --choices` (one per currency option, one per document type and
one per role of each labelled IBAN, the vectors of `folio::fields::choice_model`), labelled
positive when the option is the truth's `currency` / `document_type`, or the role whose IBAN it
is (`iban`: the seller's, `buyer_iban`: the buyer's). Data: the TUNING part only of ../shared/data/zugferd (text layer;
it labels the currency and some sellers' IBANs) per benches/splits/zugferd.json, and the
synthetic training set of the field model (`models/synth.py`, seed 20261125: currency and
document type on every document, the seller's IBAN and on some the buyer's).
SROIE labels neither and adds no row.

Evaluation: grouped cross-validation over the split's own folds of the tuning part (groups are
whole); each synthetic document is its own group, spread over the same number of folds.
Reported: top-1 accuracy per set and kind (per IBAN for the owners), rules (the option the
rules pick) -> model. Each document's type is trained twice: as read, and without its keyword
evidence (`document_type_blind`: what the structure alone says, for titles in no vocabulary);
the calibration and the type's fill threshold use both (a document of unknown words is a case
inference meets).
Calibration: an isotonic map fitted on the out-of-fold scores of each document's chosen option
(capped at 1 - 1/(n+2) for n choices: never certain);
per kind the fill threshold is half the best F1 the calibrated out-of-fold choices reach (below
it the currency stays empty and the type is OTHER). The final model is fitted on every row.

    .venv/bin/python models/train_choices.py [--synth DIR] [--reuse-rows] [--cv-only]
"""

from __future__ import annotations

import argparse
import pathlib
import subprocess
import sys

import trainers
import numpy as np
import train
from sklearn.ensemble import GradientBoostingClassifier

ROOT = pathlib.Path(__file__).resolve().parent.parent
SEED = 20261127
FOLDS = trainers.FOLDS
PARAMS = dict(n_estimators=150, max_depth=3, learning_rate=0.1, subsample=1.0, random_state=SEED)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", default=str(ROOT.parent / "shared" / "data"))
    ap.add_argument("--synth", default=str(ROOT / "target" / "synth"))
    ap.add_argument("--synth-seed", type=int, default=20261125)
    ap.add_argument("--exe", default=str(ROOT / "target" / "debug" / "export_features"))
    ap.add_argument("--reuse-rows", action="store_true")
    ap.add_argument("--out", default=str(ROOT / "models"))
    ap.add_argument("--cv-only", action="store_true", help="report the cross-validation, write nothing")
    args = ap.parse_args()
    work = ROOT / "target" / "choice_rows"
    work.mkdir(parents=True, exist_ok=True)
    exe = pathlib.Path(args.exe)
    synth = pathlib.Path(args.synth)
    if not (synth / "train").exists():
        subprocess.run([sys.executable, str(ROOT / "models" / "synth.py"), str(synth), "--seed",
                        str(args.synth_seed)], check=True)
    split = train.load_split("zugferd")
    view = train.tuning_view(pathlib.Path(args.data), "zugferd", split)
    sets = [
        ("zugferd", trainers.export(exe, "--choices", view, work / "zugferd.jsonl", args.reuse_rows), split),
        ("synthetic", trainers.export(exe, "--choices", synth / "train", work / "synth.jsonl", args.reuse_rows),
         None),
    ]
    names, rows = None, []
    for tag, path, sp in sets:
        n, r = trainers.load(path, tag, sp)
        names = names or n
        assert n == names, "feature names differ between exports"
        rows += r
    X = np.array([r["x"] for r in rows], dtype=np.float32)
    y = np.array([bool(r["label"]) for r in rows])
    fold = np.array([r["fold"] for r in rows])
    print(f"{len(rows)} rows, {int(y.sum())} positive, {len(names)} features", file=sys.stderr)

    oof = np.zeros(len(rows))
    for k in range(FOLDS):
        test = fold == k
        m = GradientBoostingClassifier(**PARAMS).fit(X[~test], y[~test])
        oof[test] = m.predict_proba(X[test])[:, 1]
    groups: dict[tuple, list[int]] = {}
    for i, r in enumerate(rows):
        groups.setdefault((r["tag"], r["doc"], r["kind"], r.get("item", 0)), []).append(i)
    acc: dict[tuple, list[int]] = {}
    chosen: dict[str, list] = {}
    for (tag, _doc, kind, item), idx in groups.items():
        if kind == "document_type" and item == 1:
            kind = "document_type_blind"  # the rows without keyword evidence, reported apart
        best = max(idx, key=lambda i: oof[i])
        rule = [i for i in idx if rows[i]["rule"]]
        a = acc.setdefault((tag, kind), [0, 0, 0, 0])
        a[0] += 1
        a[1] += int(bool(rule) and y[rule[0]])
        a[2] += int(y[best])
        a[3] += int(y[idx].any())
        chosen.setdefault(kind.removesuffix("_blind"), []).append((oof[best], bool(y[best])))
    cv = {}
    print("grouped CV top-1 accuracy %, rules -> model (documents; reachable = the right option is offered)")
    for (tag, kind), (n, r, m, reach) in sorted(acc.items()):
        cv[f"{tag}/{kind}"] = {"documents": n, "rules": round(100 * r / n, 1), "model": round(100 * m / n, 1),
                               "reachable": round(100 * reach / n, 1)}
        print(f"  {tag:10s} {kind:14s} n={n:4d}  rules {100*r/n:5.1f} -> model {100*m/n:5.1f}  (reachable {100*reach/n:5.1f})")

    # No choice is certain: the map stops at the rule of succession's bound for the number of
    # out-of-fold choices it was fitted on (every one of them right would still leave 1/(n+2)).
    n = sum(len(v) for v in chosen.values())
    iso, fill, ece = trainers.calibrate(chosen, y_max=1 - 1 / (n + 2))
    print(f"  calibration ECE (out-of-fold, isotonic fitted on it): {ece:.4f}")

    if args.cv_only:
        return 0
    final = GradientBoostingClassifier(**PARAMS).fit(X, y)
    out = pathlib.Path(args.out)
    onnx = trainers.write(final, X, out, "choices", iso, fill, {
        "features": names,
        "params": dict(PARAMS),
        "rows": len(rows),
        "positive": int(y.sum()),
        "documents": {tag: len({r["doc"] for r in rows if r["tag"] == tag}) for tag, _, _ in sets},
        "grouped_cv_top1": cv,
        "fill": fill,
        "calibration_ece_in_sample": round(ece, 4),
    })
    print(f"wrote {out / 'choices.onnx'} ({len(onnx)} bytes)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
