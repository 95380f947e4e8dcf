#!/usr/bin/env bash
# The whole test suite, from a fresh Debian 12 machine: installs the oracles the tests need
# (LLVM 19's assembler/disassembler/readelf, glslang, Mesa's lavapipe and RADV) and the C and
# C++ compilers the C API's tests use when they are missing, then runs every test of the
# workspace. The oracles are required: a test that needs one fails when it is absent
# (GCNC_REQUIRE_ORACLES=1), it never skips.
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
command -v llvm-mc-19 >/dev/null || need+=(llvm-19)
command -v glslangValidator >/dev/null || need+=(glslang-tools)
command -v spirv-val >/dev/null || need+=(spirv-tools)
[ -e /usr/share/vulkan/icd.d/lvp_icd.x86_64.json ] || need+=(mesa-vulkan-drivers)
[ -e /usr/lib/x86_64-linux-gnu/libvulkan.so.1 ] || need+=(libvulkan1)
# the C API's tests build examples/compile.c and a C++ program against libgcnc
command -v cc >/dev/null || need+=(gcc libc6-dev)
command -v g++ >/dev/null || need+=(g++)
if [ ${#need[@]} -gt 0 ]; then
  echo "installing: ${need[*]}"
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}"
fi

export GCNC_REQUIRE_ORACLES=1
cargo test --workspace "$@"
