#!/usr/bin/env python3
"""Writes the textured pipelines of the draw corpus: the texture files (tex_*.bin, every
mip level in the emulator's linear layout, docs/draw.md) and the descriptions
(tex_*.json), plus the other pipelines over the same quads (scratch_*.json,
view_index_fs.json, subpass_same_fs.json). Run from
anywhere; the outputs are committed."""
import json, os, struct

HERE = os.path.dirname(os.path.abspath(__file__))


def rgba8_mips(size, levels):
    """A size x size RGBA8 texture: red and green ramps across each level, blue and alpha
    saying which level it is (in small steps: lavapipe's LOD is an approximation of
    log2, off by up to ~0.09 between powers of two, which a trilinear blend of levels
    10 apart keeps within one unit)."""
    out = bytearray()
    for l in range(levels):
        w = max(1, size >> l)
        for y in range(w):
            for x in range(w):
                out += bytes([int(255 * (x + 0.5) / w), int(255 * (y + 0.5) / w),
                              40 + 10 * l, 255 - 6 * l])
    return bytes(out)


def checker8():
    """An 8 x 8 RGBA8 storage image of two colours."""
    out = bytearray()
    for y in range(8):
        for x in range(8):
            out += bytes([200, 30, 90, 255]) if (x + y) % 2 else bytes([20, 180, 60, 255])
    return bytes(out)


FB_W, FB_H = 64, 32


def quad(x0, y0, x1, y1, u0, v0, u1, v1, w_top=1.0):
    """Two triangles over the pixel rectangle, uv from (u0, v0) to (u1, v1); the top edge
    (y0) at clip w = w_top (perspective)."""
    def vert(px, py, u, v):
        w = w_top if py == y0 else 1.0
        x, y = px / (FB_W / 2) - 1, py / (FB_H / 2) - 1
        return [x * w, y * w, 0.5 * w, w, u, v]
    a, b = vert(x0, y0, u0, v0), vert(x1, y0, u1, v0)
    c, d = vert(x0, y1, u0, v1), vert(x1, y1, u1, v1)
    return a + b + c + b + d + c


# axis-aligned quads over a 16 x 16 texture (exact derivatives: LOD log2(16 / pixels)):
# LOD -1, 0, 1, 2, between levels (0.415, 0.678) and anisotropic (max of the axes). The uv
# start off texel edges so no pixel centre samples on a texel boundary.
U0, V0 = 0.013, 0.029
POW2 = [(0, 0, 32, 32), (32, 0, 48, 16), (48, 0, 56, 8), (56, 0, 60, 4), (60, 0, 64, 16),
        (54, 16, 64, 20)]
BETWEEN = [(32, 16, 44, 28), (44, 16, 54, 26)]


def quads(rects):
    return sum((quad(x0, y0, x1, y1, U0, V0, U0 + 1, V0 + 1) for x0, y0, x1, y1 in rects), [])


QUADS = quads(POW2 + BETWEEN)


def desc(fs, descriptors, colors=("R8G8B8A8_UNORM",), verts=QUADS):
    return {
        "vertex": {"spv": "vs_uv.spv"},
        "fragment": {"spv": fs},
        "vertex_buffers": [{"binding": 0, "stride": 24, "f32": [round(v, 6) for v in verts]}],
        "attributes": [
            {"location": 0, "binding": 0, "format": "R32G32B32A32_SFLOAT", "offset": 0},
            {"location": 1, "binding": 0, "format": "R32G32_SFLOAT", "offset": 16},
        ],
        "draw": {"vertex_count": len(verts) // 6},
        "viewport": {"width": FB_W, "height": FB_H},
        "color_attachments": [{"format": f, "clear": [0, 0, 0, 1]} for f in colors],
        "descriptors": descriptors,
    }


TEX = {"set": 0, "binding": 0, "type": "combined_image_sampler",
       "image": "2d:rgba8:16x16:5", "file": "tex_rgba8_16_mips.bin"}


def framebuffer_image():
    """A 64 x 32 RGBA8 image, one texel per pixel of the framebuffer."""
    out = bytearray()
    for y in range(FB_H):
        for x in range(FB_W):
            out += bytes([(x * 37 + y * 11) % 256, (x * 5 + y * 29) % 256, (x ^ y) * 4 % 256, 255])
    return bytes(out)


def main():
    with open(os.path.join(HERE, "tex_rgba8_64x32.bin"), "wb") as f:
        f.write(framebuffer_image())
    with open(os.path.join(HERE, "tex_rgba8_16_mips.bin"), "wb") as f:
        f.write(rgba8_mips(16, 5))
    with open(os.path.join(HERE, "tex_checker8.bin"), "wb") as f:
        f.write(checker8())
    out = {
        "tex_implicit_nearest": desc("fs_tex_implicit.spv",
                                     [dict(TEX, sampler="nearest/repeat/mipnearest")]),
        "tex_implicit_trilinear": desc("fs_tex_implicit.spv",
                                       [dict(TEX, sampler="linear/clamp/miplinear")]),
        "tex_bias_query_lod": desc("fs_tex_bias_lod.spv",
                                   [dict(TEX, sampler="nearest/repeat/mipnearest")],
                                   colors=("R8G8B8A8_UNORM", "R32G32B32A32_SFLOAT"),
                                   # textureQueryLod at exact LODs only: lavapipe's log2
                                   # is approximate, and it rounds x for a nearest mip
                                   # filter where AMD's image_get_lod does not
                                   verts=quads(POW2)),
        "tex_explicit_fetch_lod": desc("fs_tex_explicit.spv", [
            {"set": 0, "binding": 0, "type": "sampled_image", "image": "2d:rgba8:16x16:5",
             "file": "tex_rgba8_16_mips.bin"},
            {"set": 0, "binding": 1, "type": "sampler", "sampler": "linear/clamp/miplinear"},
            {"set": 0, "binding": 2, "type": "storage_image", "image": "2d:rgba8:8x8",
             "file": "tex_checker8.bin"},
        ]),
        "scratch_array_fs": desc("fs_scratch_array.spv", []),
        "scratch_array_vs_fs": dict(desc("fs_scratch_array.spv", []),
                                    vertex={"spv": "vs_scratch_array.spv"}),
        "view_index_fs": desc("fs_view_index.spv", []),
        # draw_corpus also draws it with fs_subpass.spv and the image as an input attachment
        "subpass_same_fs": desc("fs_subpass_same.spv", [
            {"set": 0, "binding": 0, "type": "storage_image", "image": "2d:rgba8:64x32",
             "file": "tex_rgba8_64x32.bin"}]),
        "tex_demote_derivative": desc("fs_tex_demote.spv",
                                      [dict(TEX, sampler="nearest/repeat/mipnearest")]),
    }
    for name, d in out.items():
        with open(os.path.join(HERE, name + ".json"), "w") as f:
            json.dump(d, f, indent=1)
            f.write("\n")


main()
