"""Recognise a folder on a Ray cluster: one engine per worker process, files mapped over them.

    pip install "ray[data]" && python ray_map.py FOLDER

Every Ray worker builds its own `folio.Engine` once (actor) and is given file paths (or bytes
read by Ray) to recognise; the results come back as dicts. The same shape works with Dask:
`client.map(recognize_bytes, paths)` with a `folio.Engine` created lazily per worker process
(`folio.default_engine()` does exactly that).
"""

from __future__ import annotations

import sys
from pathlib import Path

import ray

import folio


@ray.remote
class Recognizer:
    def __init__(self) -> None:
        self.engine = folio.Engine()

    def recognize(self, name: str, data: bytes) -> tuple[str, dict]:
        try:
            return name, self.engine.recognize(data, filename=name)
        except folio.FolioError as e:
            return name, {"error": {"code": e.code, "message": str(e)}}


def main(folder: str) -> None:
    ray.init()
    files = sorted(Path(folder).glob("*.pdf"))
    workers = [Recognizer.remote() for _ in range(int(ray.available_resources().get("CPU", 1)))]
    pending = [
        workers[i % len(workers)].recognize.remote(f.name, f.read_bytes())
        for i, f in enumerate(files)
    ]
    for name, result in ray.get(pending):
        number = result.get("document", {}).get("number") if "error" not in result else result["error"]["code"]
        print(name, number)


if __name__ == "__main__":
    main(sys.argv[1])
