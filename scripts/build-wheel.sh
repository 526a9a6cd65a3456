#!/usr/bin/env bash
# Builds the abi3 wheel of the Python module (Python >= 3.9): bash scripts/build-wheel.sh
# -> target/wheels/folio-<version>-cp39-abi3-linux_x86_64.whl (prints its path). Installing it
# needs the system packages of scripts/setup.sh (libtesseract and the language data).
# `--debug` builds it unoptimised (what scripts/test.sh tests: it reuses the workspace's debug
# build instead of compiling the engine a second time) into target/wheels-debug.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$root/scripts/setup.sh" >&2
profile=(--release); out="$root/target/wheels"
if [ "${1:-}" = "--debug" ]; then profile=(); out="$root/target/wheels-debug"; fi
cd "$root/python"
# A `linux` wheel: it links Debian's libtesseract (the same system packages setup.sh installs),
# which a manylinux wheel may not; pdfium comes from the pypdfium2 dependency.
"$root/.venv/bin/maturin" build "${profile[@]}" --locked --quiet --compatibility linux \
    --auditwheel warn --out "$out" >&2
ls -t "$out"/folio-*-abi3-*.whl | head -n 1
