#!/usr/bin/env bash
# Builds the abi3 wheel of the Python module (Python >= 3.9): bash scripts/build-wheel.sh
# -> target/wheels/folio-<version>-cp39-abi3-linux_x86_64.whl (prints its path). Installing it
# needs the system packages of scripts/setup.sh (libtesseract and the language data).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$root/scripts/setup.sh" >&2
cd "$root/python"
# A `linux` wheel: it links Debian's libtesseract (the same system packages setup.sh installs),
# which a manylinux wheel may not; pdfium comes from the pypdfium2 dependency.
"$root/.venv/bin/maturin" build --release --locked --quiet --compatibility linux \
    --auditwheel warn --out "$root/target/wheels" >&2
ls -t "$root"/target/wheels/folio-*-abi3-*.whl | head -n 1
