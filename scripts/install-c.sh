#!/usr/bin/env bash
# Installs the C library: bash scripts/install-c.sh PREFIX
#   PREFIX/lib/libfolio.so, PREFIX/lib/libfolio.a, PREFIX/lib/libpdfium.so and
#   libonnxruntime.so.1.31.1 (next to libfolio.so, where the library looks first), PREFIX/include/folio.h, PREFIX/lib/pkgconfig/folio.pc.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
prefix="${1:?usage: install-c.sh PREFIX}"
mkdir -p "$prefix"
prefix="$(cd "$prefix" && pwd)"
bash "$root/scripts/setup.sh"
(cd "$root" && cargo build --release --workspace --locked --quiet)
mkdir -p "$prefix/lib/pkgconfig" "$prefix/include"
install -m 0755 "$root/target/release/libfolio.so" "$prefix/lib/"
install -m 0644 "$root/target/release/libfolio.a" "$prefix/lib/"
install -m 0644 "$root/include/folio.h" "$prefix/include/"
pdfium="$(ls "$root"/.venv/lib/python3*/site-packages/pypdfium2_raw/libpdfium.so | head -n 1)"
install -m 0755 "$pdfium" "$prefix/lib/"
ort="$(ls "$root"/.venv/lib/python3*/site-packages/onnxruntime/capi/libonnxruntime.so.1.31.1 | head -n 1)"
install -m 0755 "$ort" "$prefix/lib/"
version="$(sed -n 's/^version = "\(.*\)"/\1/p' "$root/Cargo.toml" | head -n 1)"
sed -e "s|@PREFIX@|$prefix|" -e "s|@LIBDIR@|$prefix/lib|" -e "s|@INCLUDEDIR@|$prefix/include|" \
    -e "s|@VERSION@|$version|" "$root/ffi/folio.pc.in" > "$prefix/lib/pkgconfig/folio.pc"
echo "installed libfolio $version into $prefix (PKG_CONFIG_PATH=$prefix/lib/pkgconfig)"
