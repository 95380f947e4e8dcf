#!/usr/bin/env python3
"""Writes the multi-draw descriptions of tools/cli/tests/draw_vertex_builtins.rs:
draw_params_multi (three non-indexed draws) and draw_params_indexed (three indexed
draws with vertex offsets), both instanced with non-zero first instances, so every
triangle's place and colour depend on gl_DrawID, gl_BaseVertex and gl_BaseInstance."""
import json

# small triangles in the top-left corner; draw i moves right by 0.5 · i, instance k down
# by 0.5 · k (vs_draw_params.vert); vertices kept off pixel centres (64 x 32 viewport)
tri = [(-0.93, -0.91), (-0.58, -0.87), (-0.88, -0.52)]
tri2 = [(-0.55, -0.57), (-0.61, -0.93), (-0.97, -0.49)]
verts = []
for k in range(8):
    t = tri if k % 2 == 0 else tri2
    dx = 0.013 * k
    for (x, y) in t:
        verts += [x + dx, y, 0.5, 1.0]

def desc(draws, indexed):
    d = {
        "vertex": {"spv": "vs_draw_params.spv"},
        "fragment": {"spv": "../draw/fs_color.spv"},
        "vertex_buffers": [{"binding": 0, "stride": 16, "f32": verts}],
        "attributes": [{"location": 0, "binding": 0, "format": "R32G32B32A32_SFLOAT", "offset": 0}],
        "draws": draws,
        "viewport": {"width": 64, "height": 32},
        "color_attachments": [{"format": "R8G8B8A8_UNORM", "clear": [0.9, 0.9, 0.9, 1.0]}],
    }
    if indexed:
        d["index_buffer"] = {"type": "uint16", "indices": [0, 1, 2, 2, 1, 0, 0, 2, 1]}
    return d

multi = [
    {"vertex_count": 3, "first_vertex": 0, "instance_count": 1, "first_instance": 0},
    {"vertex_count": 6, "first_vertex": 3, "instance_count": 2, "first_instance": 3},
    {"vertex_count": 3, "first_vertex": 12, "instance_count": 3, "first_instance": 6},
]
indexed = [
    {"index_count": 3, "first_index": 0, "vertex_offset": 9, "instance_count": 2, "first_instance": 1},
    {"index_count": 6, "first_index": 3, "vertex_offset": 3, "instance_count": 1, "first_instance": 4},
    {"index_count": 3, "first_index": 6, "vertex_offset": 18, "instance_count": 3, "first_instance": 7},
]
for name, draws, ix in [("draw_params_multi", multi, False), ("draw_params_indexed", indexed, True)]:
    with open(f"{name}.json", "w") as f:
        json.dump(desc(draws, ix), f, indent=1)
        f.write("\n")
