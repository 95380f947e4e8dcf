#!/usr/bin/env python3
"""Writes the point and line pipelines of the draw corpus (run from anywhere):

- point_sprites.json: six points of sizes 1..7 (vs_point), gl_PointCoord and the
  point's colour into an RGBA32F target (fs_point_coord);
- point_colors.json: the same points, their flat colour into RGBA8 (fs_color);
- line_list.json: a horizontal, a vertical and two 45-degree lines, colours
  interpolated along each (vs_color + fs_color, RGBA8);
- line_strip.json: a strip of a horizontal and a 45-degree segment.

Positions are given in pixels of the 32x32 viewport and converted to NDC. Point
squares have their edges on pixel boundaries (odd sizes centred on a pixel centre,
even sizes on a pixel corner) and line endpoints sit 0.25-0.3 pixel off the pixel
centres along the line, so no pixel centre lies on a primitive's boundary: there the
emulator's parallelogram rule, lavapipe's and the hardware's diamond-exit rule agree
(docs/draw.md, "Points and lines").
"""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
W = H = 32


def ndc(x, y):
    return [x / (W / 2) - 1.0, y / (H / 2) - 1.0]


POINTS = [  # (x, y, size, colour)
    (4.5, 4.5, 1, [1, 0, 0, 1]),
    (10.5, 6.5, 3, [0, 1, 0, 1]),
    (20.0, 8.0, 4, [0, 0, 1, 1]),
    (8.0, 20.0, 6, [1, 1, 0, 0.5]),
    (24.5, 22.5, 7, [0, 1, 1, 1]),
    (16.0, 28.0, 2, [1, 0, 1, 0.25]),
]

LINES = [  # ((x0, y0, colour), (x1, y1, colour))
    ((2.25, 3.5, [1, 0, 0, 1]), (29.25, 3.5, [0, 1, 0, 1])),
    ((5.5, 6.25, [0, 0, 1, 1]), (5.5, 28.25, [1, 1, 1, 1])),
    ((8.3, 8.3, [1, 1, 0, 1]), (20.3, 20.3, [0, 0, 1, 1])),
    ((27.7, 9.3, [0, 1, 1, 1]), (15.7, 21.3, [1, 0, 1, 1])),
]

STRIP = [(2.25, 28.5, [1, 0, 0, 1]), (20.25, 28.5, [0, 1, 0, 1]), (29.25, 19.5, [0, 0, 1, 1])]


def target(fmt):
    return [{"format": fmt, "clear": [0.0, 0.0, 0.0, 0.0]}]


def desc(vs, fs, topology, data, stride, attributes, count, fmt):
    return {
        "vertex": {"spv": vs},
        "fragment": {"spv": fs},
        "vertex_buffers": [{"binding": 0, "stride": stride, "f32": data}],
        "attributes": attributes,
        "topology": topology,
        "draw": {"vertex_count": count},
        "viewport": {"width": W, "height": H},
        "color_attachments": target(fmt),
    }


def points(fs, fmt):
    data = []
    for x, y, size, col in POINTS:
        data += ndc(x, y) + [0.5, float(size)] + col
    attrs = [
        {"location": 0, "binding": 0, "format": "R32G32B32_SFLOAT", "offset": 0},
        {"location": 1, "binding": 0, "format": "R32_SFLOAT", "offset": 12},
        {"location": 2, "binding": 0, "format": "R32G32B32A32_SFLOAT", "offset": 16},
    ]
    return desc("vs_point.spv", fs, "point_list", data, 32, attrs, len(POINTS), fmt)


def lines(topology, verts):
    data = []
    for x, y, col in verts:
        data += ndc(x, y) + [0.5, 1.0] + col
    attrs = [
        {"location": 0, "binding": 0, "format": "R32G32B32A32_SFLOAT", "offset": 0},
        {"location": 1, "binding": 0, "format": "R32G32B32A32_SFLOAT", "offset": 16},
    ]
    return desc("vs_color.spv", "fs_color.spv", topology, data, 32, attrs, len(verts),
                "R8G8B8A8_UNORM")


def write(name, d):
    with open(os.path.join(HERE, name), "w") as f:
        json.dump(d, f, indent=1)
        f.write("\n")


write("point_sprites.json", points("fs_point_coord.spv", "R32G32B32A32_SFLOAT"))
write("point_colors.json", points("fs_color.spv", "R8G8B8A8_UNORM"))
write("line_list.json", lines("line_list", [v for l in LINES for v in l]))
write("line_strip.json", lines("line_strip", STRIP))
