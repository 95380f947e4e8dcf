#!/usr/bin/env bash
# Instructions to compile every compute test shader once (tests/shaders/compute/*.spv) in
# one `gcnc batch` process for TARGET (default gfx1100, its default wave): the corpus sum
# of BENCHMARKS.md's compile-speed rounds, process start paid once. Prints the whole
# process's count, the shader count, and the inclusive count of `compile::compile` (the
# sum over the shaders of their compiles).
#
#   benches/callgrind/corpus.sh target/release/gcnc [TARGET]
set -eu
BIN=$1; T=${2:-gfx1100}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
ls "$ROOT"/tests/shaders/compute/*.spv > "$tmp/list"
n=$(wc -l < "$tmp/list")
valgrind --tool=callgrind --callgrind-out-file="$tmp/cg" "$BIN" batch "$tmp/list" --target "$T" --jobs 1 >/dev/null 2>"$tmp/err" || { cat "$tmp/err"; exit 1; }
callgrind_annotate --inclusive=yes --threshold=100 "$tmp/cg" 2>/dev/null > "$tmp/txt"
total=$(grep -m1 'PROGRAM TOTALS' "$tmp/txt" | awk '{gsub(",","",$1); print $1}')
compile=$(grep -E "gcnc::compile::compile " "$tmp/txt" | head -1 | awk '{gsub(",","",$1); print $1}')
echo "shaders: $n, whole process: $total, compile::compile: $compile"
