#!/usr/bin/env bash
# Instructions per compile of the five median corpus shaders (BENCHMARKS.md, "Compile
# speed, issue 16"): one `gcnc batch` process compiles each of them REPS times (default
# 20) for TARGET (default gfx1100, its default wave), so process start and the one-time
# tables are paid once and divided away. Prints the whole process's count, and the
# inclusive count per compile of `compile::compile` and of the functions named in
# FUNCS (space-separated `gcnc::` paths, a default list of the phases below).
#
#   benches/callgrind/median.sh target/release/gcnc [TARGET] [REPS]
set -eu
BIN=$1; T=${2:-gfx1100}; REPS=${3:-20}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
# SHADERS="a b" measures other corpus shaders
for s in ${SHADERS:-subgroup_reduce dynamic_index ssbo_length std140_ubo atomics_shared}; do
  for _ in $(seq "$REPS"); do echo "$ROOT/tests/shaders/compute/$s.spv"; done
done > "$tmp/list"
n=$(wc -l < "$tmp/list")
valgrind --tool=callgrind --callgrind-out-file="$tmp/cg" "$BIN" batch "$tmp/list" --target "$T" --jobs 1 >/dev/null 2>"$tmp/err" || { cat "$tmp/err"; exit 1; }
callgrind_annotate --inclusive=yes --threshold=100 "$tmp/cg" 2>/dev/null > "$tmp/txt"
# KEEP=FILE keeps callgrind's output (for callgrind_annotate --tree=caller, ...)
[ -z "${KEEP:-}" ] || cp "$tmp/cg" "$KEEP"
total=$(grep -m1 'PROGRAM TOTALS' "$tmp/txt" | awk '{gsub(",","",$1); print $1}')
echo "compiles: $n, whole process: $total"
FUNCS=${FUNCS:-"compile::compile compile::translate_stage passes::run_pipeline_with compile::backend emit::code_object link::input::object_input link::input::typed_input link::link_inputs passes::cse::run passes::dce::run passes::simplify_algebraic::run passes::copy_prop::run passes::fold_constants::run passes::mem2reg::run passes::lower_explicit_io::run emit::encode"}
for f in $FUNCS; do
  v=$(grep -E "gcnc::$f[ '<]" "$tmp/txt" | head -1 | awk '{gsub(",","",$1); print $1}')
  printf "%-40s %10s per compile\n" "$f" "$(( ${v:-0} / n ))"
done
# glibc's allocator and memcpy/memmove, self cost
callgrind_annotate --inclusive=no --threshold=100 "$tmp/cg" 2>/dev/null > "$tmp/self"
sum() { grep -E "$1" "$tmp/self" | awk '{gsub(",","",$1); s+=$1} END {print s+0}'; }
printf "%-40s %10s per compile\n" "malloc.c + arena.c (self)" "$(( $(sum 'malloc/(malloc|arena)\.c:') / n ))"
printf "%-40s %10s per compile\n" "memcpy/memmove (self)" "$(( $(sum 'memmove|memcpy') / n ))"
