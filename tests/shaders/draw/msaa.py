#!/usr/bin/env python3
"""Writes the multisampled pipelines of the draw corpus (run from anywhere):

- msaa4_edges.json: two overlapping triangles with slanted edges (vs_color + fs_color),
  coverage per sample at Vulkan's standard 4x locations;
- msaa4_blend.json: the same blended (SRC_ALPHA, ONE_MINUS_SRC_ALPHA) per sample into
  RGBA16F;
- msaa4_depth.json: the triangles, which cross in depth, with a D32 depth test per
  sample;
- msaa4_sample_id.json: fs_sample_id (gl_SampleID: sample-rate shading; gl_SampleMaskIn
  then holds the invocation's own sample), with the depth test;
- msaa4_sample_in.json: fs_sample_in (a `sample` input: interpolated per sample);
- msaa4_mask_in.json: fs_sample_mask_in (gl_SampleMaskIn once per pixel);
- msaa4_mask_in_sample_shading.json: the same with sample shading (min_sample_shading
  1.0: one invocation per sample, each seeing its own sample's bit; the link writes
  `gcnc.choice.per_sample`);
- msaa4_interp_offset.json: vs_color2 + fs_interp_offset (interpolateAtOffset of a
  smooth and a noperspective input);
- msaa4_interp_sample.json: fs_interp_sample (interpolateAtSample, gl_SamplePosition);
- msaa4_sample_mask.json: fs_sample_mask (gl_SampleMask, a pattern of the pixel's
  position, ANDed with coverage) into RGBA8;
- msaa4_sample_mask_depth.json: fs_sample_mask_depth (gl_SampleMask beside gl_FragDepth,
  one 32_ABGR MRTZ export) with the depth test;
- msaa4_sample_mask_sample.json: fs_sample_mask_sample (gl_SampleMask in a sample-rate
  shader: only the invocation's own bit counts);
- msaa4_a2c.json: alpha to coverage (fs_color) over five quads of constant alpha 0, 1/4,
  1/2, 3/4 and 1 with edges off pixel boundaries: exactly k/4 covers k samples under
  every dither (docs/draw.md "Alpha to coverage"), so lavapipe's image is the emulator's;
- msaa4_a2c_mask.json: the same with fs_sample_mask (on GFX11 the alpha then goes with
  the sample mask in the MRTZ export).

Lavapipe renders 1 and 4 samples only (framebufferColorSampleCounts 0x5), so every
pipeline here is 4x; 2x and 8x are the emulator's unit tests' (raster.rs).

Positions are in pixels of the viewport, converted to NDC, with w = 1 (interpolation at
an offset extrapolates the barycentrics linearly, exact without perspective). The
interpolateAtOffset pipeline draws one large right triangle whose only partly covered pixels are
on its left edge (x = 0.8: of the 4x locations only sample 1, x = 0.875, is inside) and
its bottom edge (y = 12.2: only sample 0, y = 0.125).
"""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))


def vertices(w, h, verts):
    out = []
    for (x, y, z, col) in verts:
        out += [x / (w / 2) - 1.0, y / (h / 2) - 1.0, z, 1.0] + col
    return out


def desc(vs, fs, w, h, samples, verts, colors, depth=None, extra=None):
    d = {
        "vertex": {"spv": vs},
        "fragment": {"spv": fs},
        "vertex_buffers": [{"binding": 0, "stride": 32, "f32": vertices(w, h, verts)}],
        "attributes": [
            {"location": 0, "binding": 0, "format": "R32G32B32A32_SFLOAT", "offset": 0},
            {"location": 1, "binding": 0, "format": "R32G32B32A32_SFLOAT", "offset": 16},
        ],
        "draw": {"vertex_count": len(verts)},
        "viewport": {"width": w, "height": h},
        "samples": samples,
        "color_attachments": colors,
    }
    if depth:
        d["depth_attachment"] = depth
    if extra:
        d.update(extra)
    return d


def color(fmt, blend=None, clear=(0.1, 0.2, 0.3, 0.4)):
    return {"format": fmt, "clear": list(clear), "blend": blend}


# two triangles with slanted edges, crossing in depth
CROSSING = [
    (1.3, 2.1, 0.2, [1, 0, 0, 0.75]),
    (22.6, 5.7, 0.8, [0, 1, 0, 0.5]),
    (4.2, 18.4, 0.8, [0, 0, 1, 1]),
    (20.9, 1.4, 0.9, [1, 1, 0, 0.5]),
    (15.1, 19.3, 0.1, [0, 1, 1, 0.25]),
    (2.4, 9.6, 0.5, [1, 0, 1, 0.75]),
]
# one right triangle: left edge x = 0.8, bottom edge y = 12.2, hypotenuse far outside
CENTROID = [
    (0.8, -47.8, 0.5, [4, 0, 0, 1]),
    (0.8, 12.2, 0.5, [0, 4, 0, 1]),
    (60.8, 12.2, 0.5, [0, 0, 4, 1]),
]
LESS = {"format": "D32_SFLOAT", "clear": 1.0, "test": True, "write": True, "compare": "less"}
# five quads 4.3 pixels wide, alpha k/4 in quad k (two triangles each)
QUADS = []
for k in range(5):
    x0, x1, y0, y1 = 0.3 + 5 * k, 4.6 + 5 * k, 1.3, 10.7
    c = [0.2 * k, 1 - 0.2 * k, 0.5, k / 4]
    QUADS += [(x0, y0, 0.5, c), (x1, y0, 0.5, c), (x0, y1, 0.5, c)]
    QUADS += [(x1, y0, 0.5, c), (x1, y1, 0.5, c), (x0, y1, 0.5, c)]
RGBA8 = "R8G8B8A8_UNORM"
RGBA32F = "R32G32B32A32_SFLOAT"
ALPHA = {"src": "SRC_ALPHA", "dst": "ONE_MINUS_SRC_ALPHA", "op": "ADD"}

PIPELINES = {
    "msaa4_edges": desc("vs_color.spv", "fs_color.spv", 24, 20, 4, CROSSING, [color(RGBA8)]),
    "msaa4_blend": desc(
        "vs_color.spv", "fs_color.spv", 24, 20, 4, CROSSING,
        [color("R16G16B16A16_SFLOAT", ALPHA)],
    ),
    "msaa4_depth": desc(
        "vs_color.spv", "fs_color.spv", 24, 20, 4, CROSSING, [color(RGBA32F)], LESS
    ),
    "msaa4_sample_id": desc(
        "vs_color.spv", "fs_sample_id.spv", 24, 20, 4, CROSSING, [color(RGBA32F)], LESS
    ),
    "msaa4_sample_in": desc(
        "vs_color.spv", "fs_sample_in.spv", 24, 20, 4, CROSSING, [color(RGBA32F)]
    ),
    "msaa4_mask_in": desc(
        "vs_color.spv", "fs_sample_mask_in.spv", 24, 20, 4, CROSSING, [color(RGBA32F)]
    ),
    "msaa4_mask_in_sample_shading": desc(
        "vs_color.spv",
        "fs_sample_mask_in.spv",
        24,
        20,
        4,
        CROSSING,
        [color(RGBA32F)],
        extra={"min_sample_shading": 1.0},
    ),
    "msaa4_interp_offset": desc(
        "vs_color2.spv", "fs_interp_offset.spv", 16, 16, 4, CENTROID,
        [color(RGBA32F), color(RGBA32F)],
    ),
    "msaa4_interp_sample": desc(
        "vs_color.spv", "fs_interp_sample.spv", 24, 20, 4, CROSSING,
        [color(RGBA32F), color(RGBA32F)],
    ),
    "msaa4_sample_mask": desc(
        "vs_color.spv", "fs_sample_mask.spv", 24, 20, 4, CROSSING, [color(RGBA8)]
    ),
    "msaa4_sample_mask_depth": desc(
        "vs_color.spv", "fs_sample_mask_depth.spv", 24, 20, 4, CROSSING, [color(RGBA32F)], LESS
    ),
    "msaa4_sample_mask_sample": desc(
        "vs_color.spv", "fs_sample_mask_sample.spv", 24, 20, 4, CROSSING, [color(RGBA32F)]
    ),
    "msaa4_a2c": desc(
        "vs_color.spv", "fs_color.spv", 26, 12, 4, QUADS, [color(RGBA8)],
        extra={"alpha_to_coverage": True},
    ),
    "msaa4_a2c_mask": desc(
        "vs_color.spv", "fs_sample_mask.spv", 26, 12, 4, QUADS, [color(RGBA8)],
        extra={"alpha_to_coverage": True},
    ),
}

for name, d in PIPELINES.items():
    with open(os.path.join(HERE, name + ".json"), "w") as f:
        json.dump(d, f, indent=1)
        f.write("\n")
