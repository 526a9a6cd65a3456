#!/usr/bin/env bash
# Runs every test of the project: setup (idempotent), the fixture generator check, formatting,
# clippy, all Rust tests (unit, integration, golden, CLI, server over HTTP, C programs built with
# gcc against libfolio), the server's suite once more against PostgreSQL, then the Python
# module's pytest suite on the wheel, Schemathesis against the real server's OpenAPI document,
# and a short run of every fuzz target. Used by .ci/run.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
bash scripts/setup.sh
export OMP_THREAD_LIMIT=1
echo "== fixtures are what fixtures/generate.py writes" >&2
.venv/bin/python fixtures/generate.py --check
echo "== cargo fmt --check" >&2
cargo fmt --all -- --check
echo "== cargo clippy" >&2
cargo clippy --workspace --all-targets --locked -- -D warnings
echo "== cargo build (libfolio.so/.a for the C tests, binaries)" >&2
cargo build --workspace --locked
echo "== cargo test" >&2
cargo test --workspace --locked
echo "== the server suite again on PostgreSQL (the tests start their own cluster)" >&2
# `--workspace` with the server's test targets named: the features stay those of the whole
# workspace, so nothing is compiled again (`-p folio-server` would resolve them anew).
server_tests=()
for t in server/tests/*.rs; do server_tests+=(--test "$(basename "$t" .rs)"); done
FOLIO_TEST_BACKEND=postgres cargo test --workspace --locked "${server_tests[@]}"
echo "== python: wheel, installed into .venv, pytest (stubs, threads, a fresh virtualenv)" >&2
wheel="$(bash scripts/build-wheel.sh --debug)"
.venv/bin/pip install --quiet --disable-pip-version-check --force-reinstall --no-deps "$wheel"
FOLIO_WHEEL="$wheel" .venv/bin/python -m pytest -q python/tests
echo "== schemathesis: the served OpenAPI document against the real folio serve (stateful links)" >&2
.venv/bin/python -m pytest -q server/tests/schemathesis
echo "== fuzz: every target's seeds, then a short fixed run (cargo-fuzz, stable, no sanitizer)" >&2
bash fuzz/run.sh smoke
