#!/usr/bin/env bash
# Installs everything Folio needs on a fresh Debian 12 machine. Idempotent: a second run only checks.
# System packages (tesseract + language models, build tools, PostgreSQL for the server's
# shared-database tests: they start clusters of their own; headless Chromium and its WebDriver for
# the web cabinet's browser tests) and a project-local virtualenv (.venv)
# holding the pinned Python packages that ship the native libraries (pdfium) and the fixture tools;
# cargo-fuzz for the fuzz targets; s3s-fs for the object-store tests.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

APT_PACKAGES=(pkg-config libtesseract-dev libleptonica-dev tesseract-ocr tesseract-ocr-eng
  tesseract-ocr-deu tesseract-ocr-fra tesseract-ocr-pol tesseract-ocr-ukr tesseract-ocr-rus
  tesseract-ocr-osd fonts-dejavu-core libclang-dev gcc g++ valgrind postgresql chromium chromium-driver)

missing=()
for p in "${APT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  echo "setup: installing ${missing[*]}" >&2
  $SUDO apt-get update -qq
  # Debian mirrors sometimes answer "cannot access archive" part-way; a second try succeeds.
  for attempt in 1 2 3; do
    if DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"; then
      break
    fi
    [ "$attempt" = 3 ] && exit 1
    sleep 3
  done
fi

VENV="$root/.venv"
if [ ! -x "$VENV/bin/python" ]; then
  python3 -m venv "$VENV"
fi
REQ="$root/scripts/requirements.txt"
NODEPS="$root/scripts/requirements-nodeps.txt"
STAMP="$VENV/.requirements.sha256"
want="$(cat "$REQ" "$NODEPS" | sha256sum | cut -d' ' -f1)"
if [ ! -f "$STAMP" ] || [ "$(cat "$STAMP")" != "$want" ]; then
  "$VENV/bin/pip" install -q --disable-pip-version-check -r "$REQ"
  "$VENV/bin/pip" install -q --disable-pip-version-check --no-deps -r "$NODEPS"
  echo "$want" > "$STAMP"
fi
# The fuzz targets (fuzz/) build with cargo-fuzz on stable Rust (no sanitizer).
CARGO_FUZZ_VERSION=0.13.2
if ! cargo fuzz --version 2>/dev/null | grep -q "$CARGO_FUZZ_VERSION"; then
  echo "setup: installing cargo-fuzz $CARGO_FUZZ_VERSION" >&2
  cargo install --quiet --locked "cargo-fuzz@$CARGO_FUZZ_VERSION"
fi
# An S3-compatible object store for the server's multi-node tests (they start it themselves):
# s3s-fs, the s3s project's S3 server over a directory (0.14.1: the last for this rustc).
S3S_FS_VERSION=0.14.1
if ! "${CARGO_HOME:-$HOME/.cargo}/bin/s3s-fs" --version 2>/dev/null | grep -q "$S3S_FS_VERSION"; then
  echo "setup: installing s3s-fs $S3S_FS_VERSION" >&2
  cargo install --quiet --locked "s3s-fs@$S3S_FS_VERSION" --features binary
fi
echo "setup: ok" >&2
