"""What the party and choice trainers share: exporting and loading their rows (tuning part only,
with folds), the isotonic calibration of the chosen candidates' out-of-fold scores with per-key
fill thresholds, and the export of the fitted model with its calibration file."""

from __future__ import annotations

import hashlib
import json
import pathlib
import subprocess

import numpy as np
from sklearn.isotonic import IsotonicRegression


FOLDS = 5


def export(exe: pathlib.Path, flag: str, data: pathlib.Path, out: pathlib.Path, reuse: bool,
           boxes: bool = False) -> pathlib.Path:
    """`export_features FLAG [--boxes] DATA` into `out` (kept as it is with `reuse`)."""
    if reuse and out.exists():
        return out
    cmd = [str(exe), flag, "--jobs", "2"] + (["--boxes"] if boxes else []) + [str(data)]
    with out.open("w") as f:
        subprocess.run(cmd, stdout=f, check=True)
    return out


def load(path: pathlib.Path, tag: str, split: dict | None):
    """Rows of one set: (names, list of row dicts with tag, fold and group set). With a split,
    only its tuning part is kept, with the split's folds and groups; without one (synthetic
    documents) each document is its own group, spread over FOLDS folds by its name's hash."""
    names = None
    rows = []
    with path.open() as f:
        for i, line in enumerate(f):
            r = json.loads(line)
            if i == 0:
                names = r["names"]
                continue
            if split is not None:
                d = split["documents"].get(r["doc"])
                if d is None or d["part"] != "tune":
                    continue
                r["fold"] = int(d["fold"])
                r["group"] = d["group"]
            else:
                h = int(hashlib.sha256(r["doc"].encode()).hexdigest(), 16)
                r["fold"] = h % FOLDS
                r["group"] = "synth:" + r["doc"]
            r["tag"] = tag
            rows.append(r)
    return names, rows


class CenteredIsotonic:
    """Centered isotonic regression (Oron and Flournoy 2017): the isotonic fit's points moved to
    the mean score of each of its steps and joined linearly, so the map rises wherever the
    scores do instead of holding flat across a step. A step of the plain map gives every raw
    score inside it one probability (the party model's mapped 0.12 and 0.50 alike to 0.54, above
    the buyer's fill threshold); a chooser then fills on, or breaks ties by layout over, a
    difference the model did make. Same attributes as `IsotonicRegression` for `write`; clamped
    at the ends."""

    def __init__(self, iso: IsotonicRegression, s: np.ndarray):
        # The fit does not decrease, so each of its values is one run of sorted scores, and the
        # runs' means rise with the values.
        fitted = iso.predict(s)
        self.y_thresholds_ = np.unique(fitted)
        self.X_thresholds_ = np.array([s[fitted == v].mean() for v in self.y_thresholds_])

    def predict(self, p):
        return np.interp(np.asarray(p, dtype=float), self.X_thresholds_, self.y_thresholds_)


def calibrate(chosen: dict[str, list[tuple[float, bool]]], y_max: float = 1.0, centered: bool = False):
    """One isotonic map over every key's chosen (score, right) pairs, capped at `y_max` (with
    `centered`, its centered form, `CenteredIsotonic`); per key the fill threshold, half the best
    F1 the calibrated choices reach (filling a value right with probability p pays for F1 when p
    is above half the F1 reached); and the expected calibration error over ten bins. Returns
    (map, fill, ece)."""
    s = np.array([p for v in chosen.values() for p, _ in v])
    c = np.array([ok for v in chosen.values() for _, ok in v], dtype=float)
    iso = IsotonicRegression(out_of_bounds="clip", y_min=0, y_max=y_max).fit(s, c)
    if centered:
        iso = CenteredIsotonic(iso, s)
    fill = {}
    for key, v in chosen.items():
        cal = iso.predict(np.array([p for p, _ in v])) if v else np.array([])
        ok = np.array([o for _, o in v])
        best_f1 = 0.0
        for t in sorted(set(np.round(cal, 4)) | {0.0}):
            pred = cal >= t
            tp = int((pred & ok).sum())
            best_f1 = max(best_f1, 2 * tp / (pred.sum() + len(v)) if len(v) else 0.0)
        fill[key] = round(best_f1 / 2, 4)
        print(f"  fill {key}: {best_f1 / 2:.3f} (best out-of-fold F1 {100 * best_f1:.1f})")
    cal_all = iso.predict(s)
    bins = np.minimum((cal_all * 10).astype(int), 9)
    ece = sum(abs(c[bins == b].mean() - cal_all[bins == b].mean()) * (bins == b).sum()
              for b in range(10) if (bins == b).any()) / len(s)
    return iso, fill, float(ece)


def write(model, X, out: pathlib.Path, stem: str, iso, fill: dict, metrics: dict) -> bytes:
    """Writes `<stem>.onnx` (skl2onnx, opset 17, no zipmap), `<stem>.calibration.json` and
    `<stem>.metrics.json` (`metrics` plus the file's sha256 and size) into `out`."""
    from skl2onnx import to_onnx

    onnx = to_onnx(model, X[:1], options={id(model): {"zipmap": False}}, target_opset=17).SerializeToString()
    (out / f"{stem}.onnx").write_bytes(onnx)
    (out / f"{stem}.calibration.json").write_text(json.dumps(
        {"x": [round(float(v), 6) for v in iso.X_thresholds_], "y": [round(float(v), 6) for v in iso.y_thresholds_],
         "fill": fill}, indent=1) + "\n")
    metrics = {**metrics, "sha256": hashlib.sha256(onnx).hexdigest(), "bytes": len(onnx)}
    (out / f"{stem}.metrics.json").write_text(json.dumps(metrics, indent=1) + "\n")
    return onnx
