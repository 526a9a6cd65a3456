#!/usr/bin/env python3
"""Trains the party model (models/parties.onnx): which party candidate names the seller, which the buyer.

Rows come from `export_features --parties` (one per role and party candidate, the vector of
`folio::fields::party_model::party_vector`), labelled positive when the name the candidate gives
the Result matches the truth's name by the shared scoring rule (normalised difflib ratio >= 0.8).
Data: the TUNING part only of ../shared/data/zugferd (text layer, as `accuracy --visual` reads it)
and ../shared/data/sroie (the dataset's OCR boxes; seller only), per benches/splits/*.json, and a
synthetic training set (`models/synth.py`, truth with seller_name and buyer_name).

Evaluation: grouped cross-validation over the split's own folds of the tuning part (groups are
whole: a seller, scenario or shop never sits in training and test at once); each synthetic
document is its own group, spread over the same number of folds. Reported: top-1 accuracy of the
chosen candidate per set and role, rules (the candidate the rule scorer picks) -> model.
Calibration: a centered isotonic map (`trainers.CenteredIsotonic`) fitted on the out-of-fold
scores of each document's chosen candidate; per role the fill threshold is half the best F1 the calibrated out-of-fold choices
reach (filling a value right with probability p pays for F1 when p is above half the F1). The final model is fitted on every row and exported with skl2onnx.

    .venv/bin/python models/train_parties.py [--synth DIR] [--reuse-rows]
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
SEED = 20261126
FOLDS = trainers.FOLDS
# Chosen by the grouped cross-validation (2026-11-26): depth 2 (the earlier setting) swung by 8
# points of SROIE seller top-1 when 27 of the 400 synthetic documents' features changed
# (82.9 / 87.1 / 82.3 at synthetic weights 1 / 0.5 / 0.3); depths 3-5 held 92.8-94.0 there and
# were better on the synthetic roles too; 200 trees of depth 4 were the best of those tried.
PARAMS = dict(n_estimators=200, max_depth=4, learning_rate=0.1, subsample=1.0, random_state=SEED)


def choices(rows, scores):
    """Per (tag, doc, role): the top-scored row's index, its score, whether any row is right,
    and the rules' choice (the row whose `rule_pick_this_role` is set)."""
    out = {}
    for i, r in enumerate(rows):
        k = (r["tag"], r["doc"], r["role"])
        out.setdefault(k, []).append(i)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", default=str(ROOT.parent / "shared" / "data"),
                    help="folder with zugferd/ and sroie/ (or folders holding only their tuning parts)")
    ap.add_argument("--synth", default=str(ROOT / "target" / "party_synth"))
    ap.add_argument("--synth-train", type=int, default=400)
    ap.add_argument("--synth-seed", type=int, default=1414)
    # 0.3 by the grouped CV of 2026-11-26 (mean top-1 over the five set/role rows, depth 4):
    # weight 1.0 91.3 / 94.2 / 94.8 / 83.1 / 81.4 (SROIE seller, synthetic buyer, synthetic
    # seller, zugferd buyer, zugferd seller), 0.5 89.8 / 93.9 / 94.5 / 93.2 / 93.2, 0.3 90.7 /
    # 92.6 / 93.8 / 100 / 100, 0.2 91.6 / 91.6 / 94.0 / 100 / 89.8. The zugferd rows swing with
    # one leave-one-group-out fold of 37 invoices: the choice is fragile, see models/README.md.
    # Rerun on the candidates of 6bf6920 (same criterion): 0.2 94.9 / 93.5 / 94.8 / 100 / 100
    # (mean 96.6), 0.3 95.5 / 94.8 / 95.0 / 81.4 / 86.4 (90.6), 0.5 95.8 / 94.5 / 94.8 / 93.2 /
    # 100 (95.7), 1.0 96.4 / 94.8 / 95.0 / 83.1 / 81.4 (90.1): 0.2. Again on the candidates of
    # 614dc7b: 0.2 95.2 / 95.8 / 95.0 / 81.4 / 88.1 (91.1), 0.3 94.3 / 95.8 / 94.5 / 100 / 100
    # (96.9), 0.5 94.6 / 96.1 / 95.2 / 100 / 100 (97.2): 0.5. Again on the synthetic set of the
    # generator with foreign-currency invoices (2026-11-27): 0.2 94.3 / 95.5 / 96.2 / 100 / 96.6
    # (96.5), 0.3 94.9 / 95.5 / 96.0 / 100 / 100 (97.3), 0.5 94.3 / 95.5 / 96.8 / 93.2 / 100
    # (96.0), 1.0 93.7 / 94.9 / 97.0 / 100 / 94.9 (96.1): 0.3. And with buyer IBANs printed in
    # some buyer blocks (same day): 0.2 94.3 / 95.2 / 95.8 / 100 / 94.9 (96.0), 0.3 94.9 / 95.5 /
    # 96.5 / 93.2 / 96.6 (95.3), 0.5 94.3 / 95.5 / 96.5 / 93.2 / 100 (95.9), 1.0 94.3 / 95.5 /
    # 96.2 / 98.3 / 93.2 (95.5): 0.2. The zugferd rows decide each time.
    ap.add_argument("--synth-weight", type=float, default=0.2)
    ap.add_argument("--exe", default=str(ROOT / "target" / "debug" / "export_features"))
    ap.add_argument("--reuse-rows", action="store_true")
    ap.add_argument("--out", default=str(ROOT / "models"))
    ap.add_argument("--estimators", type=int, default=PARAMS["n_estimators"])
    ap.add_argument("--depth", type=int, default=PARAMS["max_depth"])
    ap.add_argument("--learning-rate", type=float, default=PARAMS["learning_rate"])
    ap.add_argument("--cv-only", action="store_true", help="report the cross-validation, write nothing")
    args = ap.parse_args()
    PARAMS.update(n_estimators=args.estimators, max_depth=args.depth, learning_rate=args.learning_rate)
    data = pathlib.Path(args.data)
    work = ROOT / "target" / "party_rows"
    work.mkdir(parents=True, exist_ok=True)
    exe = pathlib.Path(args.exe)
    synth = pathlib.Path(args.synth)
    if not (synth / "train").exists():
        subprocess.run(
            [sys.executable, str(ROOT / "models" / "synth.py"), str(synth), "--train", str(args.synth_train),
             "--holdout", "120", "--seed", str(args.synth_seed)],
            check=True,
        )
    # The real sets are read through the tuning views train.py builds (links to the tuning
    # documents only, made from the split by file name before anything is opened): no frozen
    # document reaches the exporter. `load` keeps tuning rows only, as a second check.
    splits = {ds: train.load_split(ds) for ds in ("zugferd", "sroie")}
    views = {ds: train.tuning_view(data, ds, split) for ds, split in splits.items()}
    sets = [
        ("zugferd", trainers.export(exe, "--parties", views["zugferd"], work / "zugferd.jsonl", args.reuse_rows),
         splits["zugferd"]),
        ("sroie", trainers.export(exe, "--parties", views["sroie"], work / "sroie.jsonl", args.reuse_rows, boxes=True),
         splits["sroie"]),
        ("synthetic", trainers.export(exe, "--parties", synth / "train", work / "synth.jsonl", args.reuse_rows), None),
    ]
    names, rows = None, []
    for tag, path, split in sets:
        n, r = trainers.load(path, tag, split)
        names = names or n
        assert n == names, "feature names differ between exports"
        rows += r
    X = np.array([r["x"] for r in rows], dtype=np.float32)
    y = np.array([bool(r["label"]) for r in rows])
    fold = np.array([r["fold"] for r in rows])
    w = np.array([args.synth_weight if r["tag"] == "synthetic" else 1.0 for r in rows])
    rule_col = names.index("rule_pick_this_role")
    print(f"{len(rows)} rows, {int(y.sum())} positive, {len(names)} features", file=sys.stderr)

    # Grouped cross-validation over the folds.
    oof = np.zeros(len(rows))
    for k in range(FOLDS):
        test = fold == k
        m = GradientBoostingClassifier(**PARAMS).fit(X[~test], y[~test], sample_weight=w[~test])
        oof[test] = m.predict_proba(X[test])[:, 1]
    groups = choices(rows, oof)
    acc = {}
    chosen = {"seller_name": [], "buyer_name": []}
    for (tag, doc, role), idx in groups.items():
        best = max(idx, key=lambda i: oof[i])
        rule = [i for i in idx if X[i, rule_col] > 0.5]
        a = acc.setdefault((tag, role), [0, 0, 0, 0])
        a[0] += 1
        a[1] += int(bool(rule) and y[rule[0]])
        a[2] += int(y[best])
        a[3] += int(y[idx].any())
        chosen[role].append((oof[best], bool(y[best])))
    cv = {}
    print("grouped CV top-1 accuracy %, rules -> model (documents; reachable = a right candidate exists)")
    for (tag, role), (n, r, m, reach) in sorted(acc.items()):
        cv[f"{tag}/{role}"] = {"documents": n, "rules": round(100 * r / n, 1), "model": round(100 * m / n, 1),
                                "reachable": round(100 * reach / n, 1)}
        print(f"  {tag:10s} {role:12s} n={n:4d}  rules {100*r/n:5.1f} -> model {100*m/n:5.1f}  (reachable {100*reach/n:5.1f})")

    # Calibration of the chosen candidates' scores and per-role fill thresholds (`seller`,
    # `buyer`): half each role's best out-of-fold F1.
    iso, fill, ece = trainers.calibrate({role.split("_")[0]: v for role, v in chosen.items()},
                                        centered=True)

    if args.cv_only:
        return 0
    final = GradientBoostingClassifier(**PARAMS).fit(X, y, sample_weight=w)
    out = pathlib.Path(args.out)
    onnx = trainers.write(final, X, out, "parties", iso, fill, {
        "features": names,
        "params": {k: v for k, v in PARAMS.items()},
        "synthetic_weight": args.synth_weight,
        "rows": len(rows),
        "positive": int(y.sum()),
        "documents": {tag: len({r["doc"] for r in rows if r["tag"] == tag}) for tag, _, _ in sets},
        "grouped_cv_top1": cv,
        "fill": fill,
        "calibration_ece_in_sample": round(ece, 4),
    })
    print(f"wrote {out / 'parties.onnx'} ({len(onnx)} bytes)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
