#!/usr/bin/env bash
# Runs every test of the project: setup (idempotent), the fixture generator check, formatting,
# clippy, all Rust tests (unit, integration, golden, CLI). Used by .ci/run.
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
echo "== cargo test" >&2
cargo test --workspace --locked
