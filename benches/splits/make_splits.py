"""Writes the honest-evaluation splits of the labelled dev sets (issue 14, item 1).

    python3 benches/splits/make_splits.py [--data ../shared/data] [--out benches/splits] [--check]

For each set (`zugferd`, `sroie`) it writes `<set>.json`: every document id (the file stem, as
`accuracy` names it when run on the set's folder) with its group, its part (`tune` or `frozen`)
and, for tuning documents, its cross-validation fold. `--check` writes nothing and exits 1 when a
committed file differs from what this script makes (the bench test runs it).

Only what the grouping needs is read: the file names and each `truth.json`'s `seller_name`. No
document (PDF, image, OCR lines) is opened, the frozen ones included.

Rules (a group never crosses tune/frozen, never crosses folds):

* Names are normalised as the shared scoring rules do: NFKC, upper case, punctuation removed,
  white space collapsed.
* Two documents are in one group when any of these links holds (groups are the connected
  components, so links chain):
  - **same seller**: their normalised seller names have a difflib ratio of at least 0.8 (the
    scoring rule's threshold: a seller name the scorer would accept for one document is never
    learnt on another). For SROIE this is the shop; a chain's branches (`MR. D.I.Y. (M)`,
    `MR. D.I.Y. (KUCHAI)`) and the labels' OCR-like typos fall together.
  - **same scenario** (zugferd only): the same invoice made by different producers or in
    different profiles. The scenario key is the last `__` segment of the file name, lower-cased,
    without the `zugferd_1p0_`/`zugferd_2p0_`/`zugferd_2p1_` prefix, without profile tokens
    (`minimum`, `basic`, `basic-wl`, `basicwl`, `comfort`, `en16931`, `extended`, `xrechnung`)
    at either end, without the variant suffixes `_xrechnung_embedded`, `_xrechnung`,
    `_embedded`, `_zugferd1and2` and a trailing variant letter (`507a` -> `507`), and without the
    `mustanggnuaccountingbeispiel`/`mustang` prefix. So `XML-Rechnung__FX__EN16931_Einfach`,
    `..._intarsys__EN16931__zugferd_2p0_EN16931_Einfach` and `..._zugferd_2p1_BASIC_Einfach`
    share `einfach`.
  - **same family** (zugferd only): every Mustangproject / python-factur-x sample is one family
    (the same seller's invoices in one generator's layout, one of them unlabelled for seller), and
    so is every FNFE sample.
  Scenario alone would not do: `EN16931_Gutschrift` and `EN16931_Einfach` are different scenarios
  with the same seller, number, date and total printed in the same layout.
* Groups are shuffled with a fixed seed (`SEED`) and taken into the frozen part in that order
  while they fit: a group joins when the frozen count stays at or under `FROZEN_FRACTION` of the
  set (rounded); groups that do not fit stay in tuning.
* The tuning groups are dealt into `FOLDS` folds, largest group first, each to the fold with the
  fewest documents so far (ties: lowest fold); with fewer tuning groups than `FOLDS`, one fold
  per group (leave-one-group-out).
"""

from __future__ import annotations

import argparse
import difflib
import json
import pathlib
import random
import re
import sys
import unicodedata

ROOT = pathlib.Path(__file__).resolve().parents[2]
SEED = 14
FROZEN_FRACTION = 0.30
FOLDS = 5
SETS = ("zugferd", "sroie")
SAME_NAME = 0.8
PROFILES = ("minimum", "basic-wl", "basicwl", "basic", "comfort", "en16931", "extended", "xrechnung")
SUFFIXES = ("_xrechnung_embedded", "_xrechnung", "_embedded", "_zugferd1and2")


def norm_name(s: str) -> str:
    """The shared scoring rules' normalisation of names."""
    s = unicodedata.normalize("NFKC", s).upper()
    s = "".join(" " if unicodedata.category(c).startswith(("P", "S")) else c for c in s)
    return " ".join(s.split())


def scenario(doc_id: str) -> str:
    """The zugferd scenario key of a file stem (see the module's rules)."""
    s = doc_id.split("__")[-1].lower()
    s = re.sub(r"^zugferd_\dp\d_", "", s)
    for suf in SUFFIXES:
        if s.endswith(suf):
            s = s[: -len(suf)]
    changed = True
    while changed:
        changed = False
        for p in PROFILES:
            if s.startswith(p + "_"):
                s, changed = s[len(p) + 1 :], True
            elif s.endswith("_" + p):
                s, changed = s[: -len(p) - 1], True
    s = re.sub(r"^(mustanggnuaccountingbeispiel|mustang)", "", s)
    s = re.sub(r"(\d)[a-z]$", r"\1", s)
    return s


def family(doc_id: str) -> str | None:
    low = doc_id.lower()
    if "mustang" in low or "python-factur-x" in low:
        return "mustang"
    if "fnfe" in low:
        return "fnfe"
    return None


class Union:
    def __init__(self, items: list[str]):
        self.parent = {i: i for i in items}

    def find(self, a: str) -> str:
        while self.parent[a] != a:
            self.parent[a] = self.parent[self.parent[a]]
            a = self.parent[a]
        return a

    def join(self, a: str, b: str) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[max(ra, rb)] = min(ra, rb)


def groups_of(name: str, data: pathlib.Path) -> dict[str, str]:
    """Document id -> group name."""
    folder = data / name
    ids = sorted(p.name[: -len(".truth.json")] for p in folder.glob("*.truth.json"))
    seller = {}
    for i in ids:
        truth = json.loads((folder / f"{i}.truth.json").read_text(encoding="utf-8"))
        seller[i] = norm_name(truth.get("seller_name") or "")
    u = Union(ids)
    names = sorted({s for s in seller.values() if s})
    name_root = Union(names)
    for a_i, a in enumerate(names):
        for b in names[a_i + 1 :]:
            if difflib.SequenceMatcher(None, a, b).ratio() >= SAME_NAME:
                name_root.join(a, b)
    first: dict[str, str] = {}
    for i in ids:
        keys = []
        if seller[i]:
            keys.append("seller:" + name_root.find(seller[i]))
        if name == "zugferd":
            keys.append("scenario:" + scenario(i))
            if fam := family(i):
                keys.append("family:" + fam)
        for k in keys:
            if k in first:
                u.join(first[k], i)
            else:
                first[k] = i
    # A group's name: its first link key, families before sellers before scenarios (readable,
    # stable).
    label: dict[str, str] = {}
    rank = {"family": 0, "seller": 1, "scenario": 2}
    for k in sorted(first, key=lambda k: (rank[k.split(":")[0]], k)):
        label.setdefault(u.find(first[k]), k)
    return {i: label.get(u.find(i), "doc:" + i) for i in ids}


def make(name: str, data: pathlib.Path) -> dict:
    group = groups_of(name, data)
    members: dict[str, list[str]] = {}
    for i, g in sorted(group.items()):
        members.setdefault(g, []).append(i)
    order = sorted(members)
    random.Random(f"{SEED}:{name}").shuffle(order)
    target = round(FROZEN_FRACTION * len(group))
    frozen: set[str] = set()
    n = 0
    for g in order:
        if n + len(members[g]) <= target:
            frozen.add(g)
            n += len(members[g])
    tune = [g for g in order if g not in frozen]
    k = min(FOLDS, len(tune))
    fold_of: dict[str, int] = {}
    sizes = [0] * k
    for g in sorted(tune, key=lambda g: (-len(members[g]), order.index(g))):
        f = min(range(k), key=lambda j: (sizes[j], j))
        fold_of[g] = f
        sizes[f] += len(members[g])
    docs = {
        i: {"group": g, "part": "frozen" if g in frozen else "tune", "fold": fold_of.get(g)}
        for i, g in sorted(group.items())
    }
    return {
        "set": name,
        "generator": "benches/splits/make_splits.py",
        "seed": SEED,
        "frozen_fraction": FROZEN_FRACTION,
        "folds": k,
        "counts": {
            "documents": len(group),
            "groups": len(members),
            "tune_documents": len(group) - n,
            "tune_groups": len(tune),
            "frozen_documents": n,
            "frozen_groups": len(frozen),
            "fold_documents": sizes,
        },
        "documents": docs,
    }


def render(split: dict) -> str:
    return json.dumps(split, indent=1, ensure_ascii=False, sort_keys=False) + "\n"


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default=str(ROOT.parent / "shared" / "data"))
    ap.add_argument("--out", default=str(ROOT / "benches" / "splits"))
    ap.add_argument("--check", action="store_true", help="compare with the files, write nothing")
    a = ap.parse_args()
    data, out = pathlib.Path(a.data), pathlib.Path(a.out)
    stale = []
    for name in SETS:
        text = render(make(name, data))
        path = out / f"{name}.json"
        if a.check:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                stale.append(str(path))
        else:
            path.write_text(text, encoding="utf-8")
            c = json.loads(text)["counts"]
            print(f"{path}: {c}", file=sys.stderr)
    if stale:
        print("split files differ from what make_splits.py makes: " + ", ".join(stale), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
