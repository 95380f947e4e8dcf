#!/usr/bin/env bash
# Installs libgcnc, the C API (docs/c-api.md), under PREFIX (default /usr/local):
#   PREFIX/lib/libgcnc.so, PREFIX/lib/libgcnc.a   (release builds of the gcnc-capi crate)
#   PREFIX/include/gcnc.h                         (the committed, cbindgen-generated header)
#   PREFIX/lib/pkgconfig/gcnc.pc                  (`pkg-config --cflags --libs gcnc`;
#                                                  `--static` adds the system libraries)
# Then: cc app.c $(pkg-config --cflags --libs gcnc)
set -euo pipefail
cd "$(dirname "$0")/.."
prefix="${1:-/usr/local}"
target_dir="${CARGO_TARGET_DIR:-target}"

cargo build --release -p gcnc-capi
version="$(sed -n 's/^version = "\(.*\)"/\1/p' capi/Cargo.toml | head -1)"

install -d "$prefix/lib/pkgconfig" "$prefix/include"
install -m 755 "$target_dir/release/libgcnc_capi.so" "$prefix/lib/libgcnc.so"
install -m 644 "$target_dir/release/libgcnc_capi.a" "$prefix/lib/libgcnc.a"
install -m 644 capi/include/gcnc.h "$prefix/include/gcnc.h"
sed -e "s|@PREFIX@|$prefix|" -e "s|@VERSION@|$version|" capi/gcnc.pc.in >"$prefix/lib/pkgconfig/gcnc.pc"
echo "installed libgcnc $version under $prefix"
