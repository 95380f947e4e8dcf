#!/usr/bin/env python3
"""Writes the multiview draw descriptions (docs/draw.md "Multiview"), each drawn by
tests/link_multiview.rs against lavapipe, whole pipeline and linked from unlinked stages:
- multiview_01: view mask 0b11 over a 2-layer attachment (views 0 and 1);
- multiview_02: view mask 0b101 over a 3-layer attachment (views 0 and 2; layer 1 is
  neither rendered nor cleared, Vulkan's load operations applying to the mask's views);
- multiview_off: the same shaders without multiview (gl_ViewIndex is 0; one layer).
vs_multiview shifts each view's geometry by its view index; fs_multiview writes blue
1/8 + view/4 and alpha 1 when both stages saw the same view."""
import json, os

HERE = os.path.dirname(os.path.abspath(__file__))
COLOURS = [(1, 0, 0), (0, 1, 0), (0, 0, 1), (1, 1, 0)]


def tri(pts, z, k):
    out = []
    for (x, y) in pts:
        out += [x, y, z, 1.0] + list(COLOURS[k % len(COLOURS)]) + [1.0]
    return out


def desc(view_mask, layers):
    big = [(-0.9, -0.85), (0.3, -0.6), (-0.7, 0.9)]
    small = [(-0.4, 0.2), (0.55, 0.1), (0.1, 0.7)]
    d = {
        "vertex": {"spv": "vs_multiview.spv"},
        "fragment": {"spv": "fs_multiview.spv"},
        "vertex_buffers": [{"binding": 0, "stride": 32,
                            "f32": tri(big, 0.5, 0) + tri(small, 0.5, 1)}],
        "attributes": [
            {"location": 0, "binding": 0, "format": "R32G32B32A32_SFLOAT", "offset": 0},
            {"location": 1, "binding": 0, "format": "R32G32B32A32_SFLOAT", "offset": 16},
        ],
        "draw": {"vertex_count": 6},
        "viewport": {"width": 32, "height": 32},
        "color_attachments": [
            {"format": "R32G32B32A32_SFLOAT", "clear": [0, 0, 0, 0], "layers": layers}
        ],
    }
    if view_mask:
        d["view_mask"] = view_mask
    return d


for name, d in {
    "multiview_01": desc(0b11, 2),
    "multiview_02": desc(0b101, 3),
    "multiview_off": desc(0, 1),
}.items():
    with open(os.path.join(HERE, name + ".json"), "w") as f:
        json.dump(d, f, indent=1)
        f.write("\n")
