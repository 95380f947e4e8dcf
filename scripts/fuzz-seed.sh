#!/usr/bin/env bash
# Seeds fuzz/corpus/<target>/ from the project's own test inputs (docs/fuzzing.md):
# SPIR-V of tests/shaders, IR of tests/filetests, and what the release `gcnc` makes of
# them (unlinked ELFs with link states, machine code, assembly text, a part's ELF).
# Each file starts with the target's configuration byte (tools/fuzz/src/lib.rs `config`).
# usage: scripts/fuzz-seed.sh [GCNC_BIN]   (default: target/release/gcnc)
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${1:-target/release/gcnc}
C=fuzz/corpus
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
mkdir -p $C/{spirv,ir_text,elf_link,cache_entry,disasm,asm,emu}
# a byte as a file prefix
byte() { printf "\\x$(printf %02x "$1")"; }
# configurations: 0 gfx900 w64, 1 gfx1030 w32, 2 gfx1030 w64, 3 gfx1100 w32, 4 gfx1100 w64
cfgs=(gfx900:64 gfx1030:32 gfx1030:64 gfx1100:32 gfx1100:64)
# a link state with descriptors, user data and a spec constant (docs/link.md)
link_state='{"descriptor_layout":[{"set":0,"binding":0,"kind":"buffer","offset":0,"stride":16},{"set":0,"binding":1,"kind":"buffer","offset":16,"stride":16}],"user_data":{"sgprs":[{"item":"descriptor_table","entry":0}],"table":[{"descriptor_set":0},{"descriptor_set_hi":0},"push_constant_pointer","push_constant_pointer_hi"]},"spec_constants":{"0":5}}'
i=0
for f in tests/shaders/compute/*.spv; do
  n=$(basename "$f" .spv); c=$((i % 5)); t=${cfgs[$c]%:*}; w=${cfgs[$c]#*:}; i=$((i + 1))
  { byte $c; cat "$f"; } > $C/spirv/c_$n
  { byte $((c | 8)); cat "$f"; } > $C/spirv/u_$n
  "$BIN" compile "$f" --target $t --wave $w -o "$tmp/$n.elf" --asm > "$tmp/$n.s" 2>/dev/null || continue
  llvm-objcopy-19 -O binary --only-section=.text "$tmp/$n.elf" "$tmp/$n.text"
  { byte $c; cat "$tmp/$n.text"; } > $C/disasm/$n
  { byte $c; cat "$tmp/$n.text"; } > $C/emu/$n
  { byte $c; cat "$tmp/$n.s"; } > $C/asm/$n
  if "$BIN" compile "$f" --target $t --wave $w --unlinked -o "$tmp/$n.u.elf" 2>/dev/null; then
    state=$link_state
    { python3 -c "import sys; sys.stdout.buffer.write(len(sys.argv[1]).to_bytes(2,'little'))" "$state"
      printf %s "$state"; cat "$tmp/$n.u.elf"; } > $C/elf_link/$n
    { byte 0; cat "$tmp/$n.u.elf"; } > $C/cache_entry/elf_$n
  fi
done
for f in tests/shaders/vert/*.spv tests/shaders/frag/*.spv; do
  { byte $((0x10 | (i % 5))); cat "$f"; } > $C/spirv/g_$(basename "$f" .spv); i=$((i + 1))
done
for f in tests/filetests/*.ir; do
  { byte $((i % 5)); cat "$f"; } > $C/ir_text/$(basename "$f" .ir); i=$((i + 1))
done
# a whole cache file written by the cache (bit 0 set: the bytes are the file)
"$BIN" compile tests/shaders/compute/push_constants.spv --target gfx1100 --unlinked -o "$tmp/pc.elf"
"$BIN" link "$tmp/pc.elf" --state <(echo "$link_state") -o "$tmp/pc.linked.elf" --cache-dir "$tmp/cache" >/dev/null
for e in "$tmp"/cache/*.gcnc; do { byte 1; cat "$e"; } > $C/cache_entry/file_$(basename "$e" .gcnc); done
echo "seeded: $(for d in $C/*; do echo -n "$(basename $d)=$(ls $d | wc -l) "; done)"
