"""The Python side of the binding-overhead comparison (benches/bindings.sh).

    python bench.py ROUNDS FILE...     (MODE=dict|json, default dict)

Each file recognised ROUNDS times after one warm-up round with `Engine.recognize` (a dict) or
`Engine.recognize_json` (the JSON text); prints one JSON line {"file": median seconds}.
"""

import json
import os
import statistics
import sys
import time

import folio

rounds = int(sys.argv[1])
files = sys.argv[2:]
engine = folio.Engine()
call = engine.recognize if os.environ.get("MODE", "dict") == "dict" else engine.recognize_json
times = {f: [] for f in files}
for r in range(rounds + 1):
    for f in files:
        s = time.perf_counter()
        try:
            call(f)
        except folio.FolioError:
            pass
        e = time.perf_counter() - s
        if r > 0:
            times[f].append(e)
print(json.dumps({f: statistics.median(v) for f, v in times.items()}))
