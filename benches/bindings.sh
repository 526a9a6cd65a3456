#!/usr/bin/env bash
# Overhead of the C and Python bindings over the Rust engine on the same fixture set (issue 4):
#   bash benches/bindings.sh [ROUNDS]
# Builds the release library, the C program and the Python module, then runs the Rust, C and
# Python sides one after the other (each: warm engine, one warm-up round, ROUNDS timed rounds,
# median per file) and prints them side by side with the ratios to Rust.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
rounds="${1:-30}"
export OMP_THREAD_LIMIT=1
bash scripts/setup.sh >&2
cargo build --release --workspace --locked --quiet
(cd python && ../.venv/bin/maturin develop --release --locked --quiet >&2)
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
gcc -std=c11 -O2 -Iinclude benches/c/bench.c -o "$tmp/bench_c" -Ltarget/release -lfolio \
    -Wl,-rpath,"$root/target/release"
files=(fixtures/docs/invoice_de_text.pdf fixtures/docs/invoice_pl_text.pdf
       fixtures/docs/act_uk_text.pdf fixtures/docs/invoice_en_docx.docx
       fixtures/docs/receipt_de_text.pdf fixtures/docs/invoice_de_scan.png)
target/release/binding_overhead --rounds "$rounds" "${files[@]}" > "$tmp/rust.json"
"$tmp/bench_c" "$rounds" "${files[@]}" > "$tmp/c.json"
MODE=dict .venv/bin/python benches/python/bench.py "$rounds" "${files[@]}" > "$tmp/py.json"
MODE=json .venv/bin/python benches/python/bench.py "$rounds" "${files[@]}" > "$tmp/pyjson.json"
.venv/bin/python - "$tmp" <<'PY'
import json, sys, statistics
d = sys.argv[1]
r, c, p, pj = (json.load(open(f"{d}/{n}.json")) for n in ("rust", "c", "py", "pyjson"))
print(f"{'file':42} {'rust ms':>9} {'C ms':>9} {'C/rust':>7} {'py ms':>9} {'py/rust':>8} {'py json':>8} {'/rust':>6}")
for f in r:
    print(f"{f:42} {r[f]*1e3:9.2f} {c[f]*1e3:9.2f} {c[f]/r[f]:7.3f} {p[f]*1e3:9.2f} {p[f]/r[f]:8.3f} {pj[f]*1e3:8.2f} {pj[f]/r[f]:6.3f}")
tot = lambda x: sum(x.values())
print(f"{'all files (sum of medians)':42} {tot(r)*1e3:9.2f} {tot(c)*1e3:9.2f} {tot(c)/tot(r):7.3f} "
      f"{tot(p)*1e3:9.2f} {tot(p)/tot(r):8.3f} {tot(pj)*1e3:8.2f} {tot(pj)/tot(r):6.3f}")
print("median of per-file ratios: C %.3f, Python (dict) %.3f, Python (JSON text) %.3f" % (
    statistics.median(c[f]/r[f] for f in r), statistics.median(p[f]/r[f] for f in r),
    statistics.median(pj[f]/r[f] for f in r)))
PY
