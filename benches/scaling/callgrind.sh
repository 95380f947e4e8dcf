#!/usr/bin/env bash
# Instruction counts per SPIR-V word of the size-scaling shaders, by phase and backend part
# (see BENCHMARKS.md, "Size scaling"): deterministic where wall time on a loaded machine is
# not. Needs valgrind and a release `gcnc` (any profile with symbols).
#
#   cargo bench --bench scaling -- --write DIR      # writes DIR/SHAPE-Nx.spv (and times them)
#   benches/scaling/callgrind.sh target/release/gcnc DIR [TARGET WAVE]
#
# Columns: callgrind's inclusive counts of front `compile::translate_stage`, middle
# `passes::run_pipeline_with`, backend `compile::backend`; inside the backend liveness
# `regalloc::live::ranges`, assignment `regalloc::assign` + `regalloc::split::apply`,
# spilling `regalloc::spill::spill`, post-RA `lower_to_hw` + `thread_branches` +
# `insert_waitcnt` + `resolve_hazards`, emit `emit::encode`, and selection the rest of the
# backend (isel, optimize_selected, the allocator's bookkeeping: recursion makes isel's own
# inclusive count unreliable). Total is `compile::compile` (the link included). Growth is
# per word against the 1× row of the shape.
set -eu
BIN=$1; DIR=$2; T=${3:-gfx1100}; W=${4:-32}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
echo "| shape | size | words | total M | front | middle | backend | select | liveness | assign | spill | post-RA | emit | total | growth | worst part growth |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
for shape in straight ifelse loops vec4; do
  base=""
  for n in 1 4 16 64; do
    f=$DIR/$shape-${n}x.spv; [ -f "$f" ] || continue
    valgrind --tool=callgrind --callgrind-out-file="$tmp/cg" "$BIN" compile "$f" --target "$T" --wave "$W" -o /dev/null >/dev/null 2>&1
    callgrind_annotate --inclusive=yes --threshold=100 "$tmp/cg" 2>/dev/null > "$tmp/txt"
    # inclusive count of gcnc::$1 (0 when it never ran or was inlined away)
    g() {
      local v
      v=$(grep -F ":gcnc::$1 [" "$tmp/txt" | head -1 | awk '{gsub(",","",$1); print $1+0}')
      echo "${v:-0}"
    }
    words=$(( $(stat -c %s "$f") / 4 ))
    post=0
    for p in lower_to_hw::lower_to_hw thread_branches::thread_branches insert_waitcnt::insert_waitcnt resolve_hazards::resolve_hazards; do
      post=$(( post + $(g "amdgpu::passes::$p") ))
    done
    row="$words $(g compile::compile) $(g compile::translate_stage) $(g passes::run_pipeline_with) $(g compile::backend) $(g amdgpu::regalloc::live::ranges) $(( $(g amdgpu::regalloc::assign) + $(g amdgpu::regalloc::split::apply) )) $(( $(g amdgpu::regalloc::spill::spill) )) $post $(( $(g amdgpu::emit::encode) ))"
    [ -n "$base" ] || base=$row
    echo "$shape $n $row | $base" | awk '{
      split($0, h, "|"); split(h[2], b, " ");
      w = $3; tot = $4; fr = $5; mi = $6; be = $7; li = $8; as = $9; sp = $10; po = $11; em = $12;
      se = be - li - as - sp - po - em;
      bw = b[1]; bse = b[5] - b[6] - b[7] - b[8] - b[9] - b[10];
      split(fr " " mi " " be " " se " " li " " as " " sp " " po " " em, cur, " ");
      split(b[3] " " b[4] " " b[5] " " bse " " b[6] " " b[7] " " b[8] " " b[9] " " b[10], bas, " ");
      split("front middle backend select liveness assign spill post-RA emit", nm, " ");
      worst = 0; wn = "";
      for (i = 1; i <= 9; i++) {
        # parts under 1 % of the compile are noise
        if (cur[i] < 0.01 * tot || bas[i] <= 0) continue;
        gr = (cur[i] / w) / (bas[i] / bw);
        if (gr > worst) { worst = gr; wn = nm[i]; }
      }
      worst_s = ($2 == 1) ? "—" : sprintf("%s ×%.2f", wn, worst);
      printf "| %s | %s× | %d | %.1f | %d | %d | %d | %d | %d | %d | %d | %d | %d | %d | %.2f | %s |\n",
        $1, $2, w, tot / 1e6, fr / w, mi / w, be / w, se / w, li / w, as / w, sp / w, po / w, em / w, tot / w,
        (tot / w) / (b[2] / bw), worst_s
    }'
  done
done
