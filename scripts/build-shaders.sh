#!/usr/bin/env bash
# Regenerates every SPIR-V module of the compute corpus from its GLSL source:
# tests/shaders/compute/NAME.comp -> NAME.spv, with glslangValidator, then validates it with
# spirv-val. The target environment is vulkan1.2 unless the source's first lines contain
# "// target-env: vulkan1.X". The .spv files are committed; a test checks they match.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=tests/shaders/compute
for src in "$dir"/*.comp; do
  env=$(sed -n 's|^// target-env: *\([a-z0-9.]*\).*|\1|p' "$src" | head -n1)
  env=${env:-vulkan1.2}
  out="${src%.comp}.spv"
  glslangValidator -V --target-env "$env" -o "$out" "$src" >/dev/null || {
    glslangValidator -V --target-env "$env" -o "$out" "$src"; exit 1; }
  if command -v spirv-val >/dev/null; then
    spirv-val --target-env "$env" "$out"
  fi
done
echo "built $(ls "$dir"/*.spv | wc -l) modules in $dir"
