#!/usr/bin/env python3
"""Writes the gl_Layer / gl_ViewportIndex draw descriptions (docs/draw.md "Vertex-stage
built-ins"), each drawn by tools/cli/tests/draw_layer_viewport.rs against lavapipe:
- layer_instances: vs_layer routes instance i to layer i of a 3-layer attachment (and
  shifts it right by 8 pixels per instance);
- viewport_triangles: vs_viewport routes triangle t to viewport t % 4 of four viewports
  of different sizes and depth ranges (each its own scissor);
- layer_viewport: vs_layer_viewport writes both, instance i into layer i and triangle t
  into viewport (t + i) % 2, over a 2-layer colour and depth attachment where triangles 0
  and 2 overlap at different depths.
Every pipeline's fragment shader reads both built-ins flat (fs_layer_viewport_read)."""
import json, os

HERE = os.path.dirname(os.path.abspath(__file__))
COLOURS = [(1, 0, 0), (0, 1, 0), (0, 0, 1), (1, 1, 0), (0, 1, 1), (1, 0, 1)]


def tri(pts, z, k):
    out = []
    for (x, y) in pts:
        out += [x, y, z, 1.0] + list(COLOURS[k % len(COLOURS)]) + [1.0]
    return out


def desc(vs, vb, vertex_count, viewports, layers, instances, depth=False):
    d = {
        "vertex": {"spv": vs + ".spv"},
        "fragment": {"spv": "fs_layer_viewport_read.spv"},
        "vertex_buffers": [{"binding": 0, "stride": 32, "f32": vb}],
        "attributes": [
            {"location": 0, "binding": 0, "format": "R32G32B32A32_SFLOAT", "offset": 0},
            {"location": 1, "binding": 0, "format": "R32G32B32A32_SFLOAT", "offset": 16},
        ],
        "draw": {"vertex_count": vertex_count, "instance_count": instances},
        "framebuffer": {"width": 32, "height": 32},
        "color_attachments": [
            {"format": "R32G32B32A32_SFLOAT", "clear": [0, 0, 0, 0], "layers": layers}
        ],
    }
    if len(viewports) == 1:
        d["viewport"] = viewports[0]
    else:
        d["viewports"] = viewports
    if depth:
        d["depth_attachment"] = {"format": "D32_SFLOAT", "clear": 1.0, "compare": "less",
                                 "layers": layers}
    return d


def vp(x, y, w, h, lo=0.0, hi=1.0):
    return {"x": x, "y": y, "width": w, "height": h, "min_depth": lo, "max_depth": hi}


big = [(-0.9, -0.85), (0.3, -0.6), (-0.7, 0.9)]
small = [(0.1, 0.2), (0.95, 0.1), (0.6, 0.9)]
mid = [(-0.6, -0.4), (0.5, -0.3), (-0.1, 0.7)]
write = {
    "layer_instances": desc(
        "vs_layer", tri(big, 0.5, 0) + tri(small, 0.5, 1), 6, [vp(0, 0, 32, 32)], 3, 3),
    "viewport_triangles": desc(
        "vs_viewport",
        tri(big, 0.5, 0) + tri(big, 0.5, 1) + tri(big, 0.5, 2) + tri(big, 0.5, 3)
        + tri(small, 0.25, 4) + tri(small, 0.75, 5),
        18,
        [vp(0, 0, 16, 16), vp(16, 0, 16, 8, 0.25, 0.75), vp(0, 16, 12, 16, 0.5, 1.0),
         vp(16, 12, 16, 20, 0.0, 0.5)],
        1, 1, depth=True),
    "layer_viewport": desc(
        "vs_layer_viewport",
        tri(big, 0.5, 0) + tri(small, 0.5, 1) + tri(mid, 0.25, 2),
        9, [vp(0, 0, 16, 32), vp(16, 0, 16, 32)], 2, 2, depth=True),
}
for name, d in write.items():
    with open(os.path.join(HERE, name + ".json"), "w") as f:
        json.dump(d, f, indent=1)
        f.write("\n")
