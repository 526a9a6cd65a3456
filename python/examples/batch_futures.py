"""Recognise a folder with concurrent.futures: one engine shared by a thread pool.

    python batch_futures.py FOLDER [OUT_DIR] [--workers N]

The engine releases the GIL while it works, so threads run in parallel on all cores; each
document becomes OUT_DIR/<name>.json (or <name>.error.json with the error code). Prints one
line per document and a summary.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path

import folio

SUFFIXES = {".pdf", ".png", ".jpg", ".jpeg", ".tif", ".tiff", ".doc", ".docx", ".xls", ".xlsx", ".rtf"}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("folder", type=Path)
    ap.add_argument("out", type=Path, nargs="?")
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    args = ap.parse_args()
    files = sorted(p for p in args.folder.iterdir() if p.suffix.lower() in SUFFIXES)
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
    engine = folio.Engine()
    ok = failed = 0
    with ThreadPoolExecutor(max_workers=args.workers) as pool:
        futures = {pool.submit(engine.recognize, f): f for f in files}
        for fut in as_completed(futures):
            f = futures[fut]
            try:
                result = fut.result()
            except (folio.FolioError, OSError) as e:
                failed += 1
                code = getattr(e, "code", type(e).__name__)
                print(f"{f.name}: {code}")
                if args.out:
                    (args.out / f"{f.stem}.error.json").write_text(
                        json.dumps({"code": code, "message": str(e)})
                    )
                continue
            ok += 1
            doc = result["document"]
            print(f"{f.name}: {result['document_type']['code']} {doc['number']} {doc['date']}")
            if args.out:
                (args.out / f"{f.stem}.json").write_text(json.dumps(result, ensure_ascii=False))
    print(f"{ok} recognised, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
