#!/usr/bin/env bash
# scripts/same-output.sh BEFORE AFTER [SHADER_DIR]
#
# Byte-identity check for changes that must not change the generated code (compile-speed
# work): compiles every SHADER_DIR/*.spv (default tests/shaders/compute) with two `gcnc`
# binaries for gfx900 wave64, gfx1030 wave32/64 and gfx1100 wave32/64 (whole pipeline),
# and unlinked (`--unlinked`) for gfx900 wave64 and gfx1100 wave32, hashes each ELF
# (or the error text of a rejected shader), and lists every configuration whose output
# differs. Exits 1 if any differs, 0 if all are identical.
set -u
if [ $# -lt 2 ]; then
  echo "usage: $0 BEFORE_GCNC AFTER_GCNC [SHADER_DIR]" >&2
  exit 2
fi
before=$1
after=$2
dir=${3:-$(dirname "$0")/../tests/shaders/compute}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# one line per configuration: "<hash of the ELF or of the error> <shader>.<target>.w<wave>"
hashes() {
  local bin=$1 out=$2 f b cfg t w u
  : > "$out"
  for f in "$dir"/*.spv; do
    b=$(basename "$f" .spv)
    for cfg in gfx900:64: gfx1030:32: gfx1030:64: gfx1100:32: gfx1100:64: \
      gfx900:64:--unlinked gfx1100:32:--unlinked; do
      IFS=: read -r t w u <<< "$cfg"
      # shellcheck disable=SC2086 # $u is empty or one flag
      if "$bin" compile "$f" --target "$t" --wave "$w" $u -o "$tmp/x.elf" 2> "$tmp/x.err"; then
        echo "$(sha256sum < "$tmp/x.elf" | cut -c1-16) $b.$t.w$w$u" >> "$out"
      else
        echo "error:$(sha256sum < "$tmp/x.err" | cut -c1-16) $b.$t.w$w$u" >> "$out"
      fi
      rm -f "$tmp/x.elf"
    done
  done
}

hashes "$before" "$tmp/before"
hashes "$after" "$tmp/after"
n=$(wc -l < "$tmp/after")
errors=$(grep -c '^error:' "$tmp/after")
if diff "$tmp/before" "$tmp/after" > "$tmp/diff"; then
  echo "identical: $n configurations ($errors rejected alike)"
else
  echo "DIFFERENT:"
  grep '^[<>]' "$tmp/diff"
  exit 1
fi
