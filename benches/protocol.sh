#!/usr/bin/env bash
# Issue 14's honest evaluation protocol in one command: the tuning and frozen figures of the
# labelled dev sets side by side (benches/reports/README.md, "Honest evaluation protocol").
#
#   bash benches/protocol.sh [--data ../shared/data] [--synth DIR] [--out DIR] [-- ACCURACY_FLAGS...]
#
# * zugferd: the visual reading (`accuracy --visual`: extract_text_pages + recognize_text_pages,
#   the embedded XML is never read), split benches/splits/zugferd.json;
# * sroie: the dataset's OCR lines (`accuracy --boxes`), split benches/splits/sroie.json;
# * the synthetic held-out set (layout families, label wordings and language mix that training
#   never sees; models/synth.py), from --synth DIR (default target/synth/holdout, which
#   scripts/retrain.sh generates with the fixed seed); skipped with a note when absent.
#
# Every part is run silently (per-run JSON in --out, default a temporary folder); the frozen
# figures are printed once, in the closing table, beside the tuning ones. Flags after `--` go to
# every accuracy run (e.g. `-- --scorer rules`).
set -euo pipefail
cd "$(dirname "$0")/.."
data=../shared/data
synth=target/synth/holdout
out=""
extra=()
while [ $# -gt 0 ]; do
    case "$1" in
        --data) data="$2"; shift 2 ;;
        --synth) synth="$2"; shift 2 ;;
        --out) out="$2"; shift 2 ;;
        --) shift; extra=("$@"); break ;;
        *) echo "protocol.sh: unknown argument $1" >&2; exit 2 ;;
    esac
done
for set in zugferd sroie; do
    [ -d "$data/$set" ] || { echo "protocol.sh: no $data/$set" >&2; exit 2; }
done
if [ -z "$out" ]; then
    out=$(mktemp -d)
    trap 'rm -rf "$out"' EXIT
fi
mkdir -p "$out"
cargo build -q -p folio-bench --bin accuracy
acc=target/debug/accuracy
# Tuning parts first, then the frozen ones; nothing of a run is printed but errors.
for part in tune frozen; do
    "$acc" --visual --split benches/splits/zugferd.json --part "$part" --json "$out/zugferd-$part.json" \
        ${extra[@]+"${extra[@]}"} "$data/zugferd" > /dev/null 2> "$out/zugferd-$part.log" \
        || { cat "$out/zugferd-$part.log" >&2; exit 1; }
    "$acc" --boxes --split benches/splits/sroie.json --part "$part" --json "$out/sroie-$part.json" \
        ${extra[@]+"${extra[@]}"} "$data/sroie" > /dev/null 2> "$out/sroie-$part.log" \
        || { cat "$out/sroie-$part.log" >&2; exit 1; }
done
if [ -d "$synth" ]; then
    "$acc" --json "$out/synth-holdout.json" ${extra[@]+"${extra[@]}"} "$synth" > /dev/null 2> "$out/synth.log" \
        || { cat "$out/synth.log" >&2; exit 1; }
else
    echo "protocol.sh: no synthetic held-out at $synth (bash scripts/retrain.sh makes it); its column is empty" >&2
fi
python3 - "$out" <<'EOF'
import json, pathlib, sys

out = pathlib.Path(sys.argv[1])
runs = {(s, p): json.loads((out / f"{s}-{p}.json").read_text()) for s in ("zugferd", "sroie") for p in ("tune", "frozen")}
held = out / "synth-holdout.json"
synth = json.loads(held.read_text()) if held.exists() else None
fields = ["number", "date", "currency", "seller_name", "seller_address", "seller_tax_id", "buyer_name", "total", "vat", "iban"]
keys = {"number", "date", "seller_name", "total"}
splits = {s: json.loads(pathlib.Path(f"benches/splits/{s}.json").read_text()) for s in ("zugferd", "sroie")}

def f1(run, f):
    t = run["fields"][f]
    return "-" if not t["labelled"] or t["f1"] is None else f"{100 * t['f1']:.1f}"

print("F1 %                 zugferd (visual)      sroie (boxes)        synthetic")
print("                     tune    frozen        tune    frozen       held-out")
row = lambda name, vals: print(f"{name:<20} {vals[0]:>6}  {vals[1]:>6}        {vals[2]:>6}  {vals[3]:>6}       {vals[4]:>6}")
order = [("zugferd", "tune"), ("zugferd", "frozen"), ("sroie", "tune"), ("sroie", "frozen")]
macro = lambda r: "-" if r is None or r["macro_f1"] is None else f"{100 * r['macro_f1']:.1f}"
row("documents", [str(runs[k]["documents"]) for k in order] + [str(synth["documents"]) if synth else "-"])
row("groups", [str(splits[s]["counts"][f"{p}_groups"]) for s, p in order] + ["-"])
row("macro F1", [macro(runs[k]) for k in order] + [macro(synth)])
for f in fields:
    row(f + (" *" if f in keys else ""), [f1(runs[k], f) for k in order] + [f1(synth, f) if synth else "-"])
row("E_INVOICE evidence", [str(runs[k]["einvoice_evidence_documents"]) for k in order] + ["-"])
print("* key field; macro F1 = mean F1 over the header fields labelled in the part; '-' = not labelled")
EOF
