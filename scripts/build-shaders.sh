#!/usr/bin/env bash
# Regenerates every SPIR-V module of the shader corpus from its GLSL source, for every
# directory under tests/shaders/ (compute/, front/, vert/, frag/, ...):
#   tests/shaders/DIR/NAME.{comp,vert,frag} -> NAME.spv   with glslangValidator,
#   tests/shaders/DIR/NAME.spvasm           -> NAME.spv   with spirv-as,
# then validates it with spirv-val. The target environment is
# vulkan1.2 unless the source's first lines contain "// target-env: vulkan1.X"; a
# "// glslang-flags: ..." line passes extra flags to the compiler, a
# "// spirv-val-flags: ..." line passes extra flags to the validator (a "// spirv-val: none
# (REASON)" line skips it, for extensions newer than the validator), and a
# "// spirv-opt: ARGS" line also writes NAME.opt.spv through spirv-opt. The .spv
# files are committed; tests check they translate (and that they are up to date).
set -euo pipefail
cd "$(dirname "$0")/.."
total=0
for dir in tests/shaders/*/; do
  dir=${dir%/}
  n=0
  for src in "$dir"/*.comp "$dir"/*.vert "$dir"/*.frag; do
    [ -e "$src" ] || continue
    env=$(sed -n 's|^// target-env: *\([a-z0-9.]*\).*|\1|p' "$src" | head -n1)
    env=${env:-vulkan1.2}
    out="${src%.*}.spv"
    # Extra compiler flags (e.g. -gV for debug info) from a "// glslang-flags:" line.
    gflags=$(sed -n 's|^// glslang-flags: *\(.*\)$|\1|p' "$src" | head -n1)
    # shellcheck disable=SC2086
    glslangValidator -V $gflags --target-env "$env" -o "$out" "$src" >/dev/null || {
      glslangValidator -V $gflags --target-env "$env" -o "$out" "$src"; exit 1; }
    # "// spirv-val-env: ENV (REASON)" validates against ENV instead (e.g. spv1.5: SPIR-V's
    # own rules without Vulkan's, for an extension no Vulkan rule set knows yet).
    # "// spirv-val: none (REASON)" — for a capability the validator does not know at all —
    # skips it, saying so.
    valenv=$(sed -n 's|^// spirv-val-env: *\([a-z0-9.]*\).*|\1|p' "$src" | head -n1)
    noval=$(sed -n 's|^// spirv-val: none *\(.*\)$|\1|p' "$src" | head -n1)
    if [ -n "$noval" ]; then
      echo "not validated: $src $noval"
    elif command -v spirv-val >/dev/null; then
      # Extra validator flags (e.g. --scalar-block-layout) from a "// spirv-val-flags:" line.
      flags=$(sed -n 's|^// spirv-val-flags: *\(.*\)$|\1|p' "$src" | head -n1)
      # shellcheck disable=SC2086
      spirv-val --target-env "${valenv:-$env}" $flags "$out"
    fi
    n=$((n + 1))
    # "// spirv-opt: ARGS" also makes NAME.opt.spv, optimized SPIR-V in SSA form (OpPhi
    # everywhere), the shape drivers see from offline-optimized content.
    opt=$(sed -n 's|^// spirv-opt: *\(.*\)$|\1|p' "$src" | head -n1)
    if [ -n "$opt" ]; then
      # shellcheck disable=SC2086
      spirv-opt $opt "$out" -o "${src%.*}.opt.spv"
      spirv-val --target-env "$env" "${src%.*}.opt.spv"
      n=$((n + 1))
    fi
  done
  # Hand-written SPIR-V assembly (shapes glslang does not emit).
  for src in "$dir"/*.spvasm; do
    [ -e "$src" ] || continue
    out="${src%.*}.spv"
    spirv-as --target-env vulkan1.2 -o "$out" "$src"
    spirv-val --target-env vulkan1.2 "$out"
    n=$((n + 1))
  done
  [ "$n" -gt 0 ] && echo "built $n modules in $dir"
  total=$((total + n))
done
echo "built $total modules"
