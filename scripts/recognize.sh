#!/usr/bin/env bash
# Sets everything up (idempotent), builds the `folio` binary and recognises the given files, or a
# sample document when none is given. Extra `folio recognize` flags may follow the files.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$root/scripts/setup.sh"
(cd "$root" && cargo build --release --workspace --locked --quiet)
if [ $# -eq 0 ]; then
  set -- "$root/fixtures/docs/invoice_de_text.pdf"
fi
exec "$root/target/release/folio" recognize "$@"
