#!/usr/bin/env python3
"""Writes the clipping descriptions of tools/cli/tests/draw_vertex_builtins.rs:
clip_planes (vs_clip: two user clip planes cutting perspective triangles), cull_distance
(vs_cull: one clip and two cull distances), near_plane (vs_near: triangles with
vertices behind the eye, clipped against the near plane, with a depth test) and
near_plane_linear (the same with noperspective colours, vs_near_linear).

The emulator decides coverage by the interpolated distance at each pixel centre, Vulkan
(and lavapipe) clip geometrically and snap the new vertices; they agree where no pixel
centre is near a clipped edge, which this script checks: every pixel centre is at least
MARGIN pixels from every zero line of a clip distance and from every edge the near
plane adds (docs/draw.md); the edges the near plane shortens stay on their lines."""
import json, math

W = H = 64
MARGIN = 0.04


def fb(ndc):
    return (W / 2 * (1 + ndc[0]), H / 2 * (1 + ndc[1]))


def line_margin(p, q, segment=False):
    """Smallest distance of a pixel centre to the line through framebuffer points p, q
    (with `segment`, to the segment p–q)."""
    dx, dy = q[0] - p[0], q[1] - p[1]
    n2 = dx * dx + dy * dy
    best = math.inf
    for x in range(W):
        for y in range(H):
            cx, cy = x + 0.5 - p[0], y + 0.5 - p[1]
            t = (cx * dx + cy * dy) / n2
            if segment:
                t = min(1.0, max(0.0, t))
            best = min(best, math.hypot(cx - t * dx, cy - t * dy))
    return best


def clip_line(a, b, c, d):
    """Framebuffer line where a·X + b·Y + c·Z + d·W = 0 with c = 0 (NDC X, Y)."""
    assert c == 0
    # two NDC points on a·X + b·Y = −d
    if abs(b) > abs(a):
        pts = [(x, (-d - a * x) / b) for x in (-1.0, 1.0)]
    else:
        pts = [((-d - b * y) / a, y) for y in (-1.0, 1.0)]
    return fb(pts[0]), fb(pts[1])


def persp(ndc, w, z=0.5):
    x, y = ndc
    return [x * w, y * w, z * w, w]


def base(vs, fs, verts, extra=None):
    d = {
        "vertex": {"spv": vs},
        "fragment": {"spv": fs},
        "vertex_buffers": [{"binding": 0, "stride": 32, "f32": [c for v in verts for c in v]}],
        "attributes": [
            {"location": 0, "binding": 0, "format": "R32G32B32A32_SFLOAT", "offset": 0},
            {"location": 1, "binding": 0, "format": "R32G32B32A32_SFLOAT", "offset": 16},
        ],
        "draw": {"vertex_count": len(verts)},
        "viewport": {"width": W, "height": H},
        "color_attachments": [{"format": "R8G8B8A8_UNORM", "clear": [0.05, 0.05, 0.1, 1.0]}],
    }
    d.update(extra or {})
    return d


def write(name, d):
    with open(f"{name}.json", "w") as f:
        json.dump(d, f, indent=1)
        f.write("\n")


COLS = [[1, 0, 0, 1], [0, 1, 0, 1], [0, 0, 1, 1], [1, 1, 0, 1], [0, 1, 1, 1], [1, 0, 1, 1]]

# clip_planes: vs_clip's planes (x + 0.3y − 0.109375w, 0.25x − y + 0.515625w)
for plane in [(1.0, 0.3, 0.0, -0.109375), (0.25, -1.0, 0.0, 0.515625)]:
    m = line_margin(*clip_line(*plane))
    assert m >= MARGIN, (plane, m)
tris = [
    ([(-0.9, -0.85), (0.93, -0.7), (0.2, 0.95)], [1.0, 2.0, 0.5]),
    ([(0.95, 0.9), (-0.3, 0.97), (0.6, -0.2)], [0.7, 1.3, 2.5]),
    ([(-0.97, 0.2), (0.45, 0.93), (-0.6, -0.6)], [1.5, 0.6, 1.0]),
]
verts = []
for k, (t, ws) in enumerate(tris):
    for j, (p, w) in enumerate(zip(t, ws)):
        verts.append(persp(p, w) + COLS[(k + j) % 6])
write("clip_planes", base("vs_clip.spv", "../draw/fs_color.spv", verts))

# cull_distance: culled when x < −0.2w at all vertices, or y > 0.45w at all; clipped
# where x + y < −1.3w
m = line_margin(*clip_line(1.0, 1.0, 0.0, 1.3))
assert m >= MARGIN, m
tris = [
    [(-0.95, -0.9), (-0.3, -0.95), (-0.5, -0.25)],   # all x < −0.2: culled
    [(-0.95, -0.6), (0.15, -0.55), (-0.7, 0.3)],     # crosses x = −0.2: drawn, clipped
    [(0.1, 0.5), (0.95, 0.6), (0.5, 0.97)],          # all y > 0.45: culled
    [(0.2, 0.3), (0.9, 0.55), (0.4, 0.95)],          # crosses y = 0.45: drawn
    [(0.0, -0.9), (0.9, -0.8), (0.5, 0.1)],          # neither: drawn
    [(-0.97, 0.4), (-0.3, 0.5), (-0.8, 0.97)],       # all x < −0.2 and some y > 0.45: culled
]
verts = []
for k, t in enumerate(tris):
    for j, p in enumerate(t):
        verts.append(persp(p, [1.0, 1.5, 0.8][j]) + COLS[(k + j) % 6])
write("cull_distance", base("vs_cull.spv", "../draw/fs_color.spv", verts))

# near_plane: eye space (looking down −z), projection of vs_near.vert
N = 1.0


def near_edges(tri):
    """The clipped polygon's edges that lie on the near plane (framebuffer): the only
    new lines (an edge the plane shortens stays on its original line)."""
    pts = []
    for a, b in zip(tri, tri[1:] + tri[:1]):
        da, db = -a[2] - N, -b[2] - N   # ≥ 0 in front of the near plane
        if da >= 0:
            pts.append(("v", a))
        if (da >= 0) != (db >= 0):
            t = da / (da - db)
            pts.append(("n", tuple(a[i] + t * (b[i] - a[i]) for i in range(3))))
    ndc = [(p[0] / -p[2], p[1] / -p[2]) for _, p in pts]
    edges = []
    for i in range(len(pts)):
        j = (i + 1) % len(pts)
        if pts[i][0] == "n" and pts[j][0] == "n":
            edges.append((fb(ndc[i]), fb(ndc[j])))
    return edges


tris = [
    # one vertex behind the eye (z > 0): a quadrilateral, two sub-triangles; a floor
    # (y = −0.8), so the near plane's edge is a row at y = 6.4 pixels
    [(-2.6, -0.8, -3.0), (2.2, -0.8, -2.6), (0.3, -0.8, 1.9)],
    # two vertices behind: a triangle; a wall (x = 0.7), the near edge at x = 54.4
    [(0.7, 0.5, -2.3), (0.7, -2.0, 2.1), (0.7, -0.3, 0.8)],
    # in front of the near plane: drawn as it is, over the others where nearer
    [(-0.55, -0.5, -1.3), (0.6, -0.45, -1.5), (0.05, 0.7, -1.2)],
    # every vertex behind: nothing
    [(-1.0, -1.0, 0.5), (1.0, -1.0, 0.6), (0.0, 1.0, 0.7)],
]


def near_margin(t):
    return min([line_margin(p, q, segment=True) for p, q in near_edges(t)] + [math.inf])


def near_vertices(tris):
    """The vertex buffer of `tris`: each triangle's last vertex nudged (in 1/64 steps,
    deterministically) until every pixel centre keeps MARGIN from the edges the near
    plane makes, with w = 1 and a colour per vertex."""
    verts = []
    for k, t in enumerate(tris):
        for step in range(64):
            x, y, z = t[2]
            cand = t[:2] + [(x + step / 64, y, z)]
            if near_margin(cand) >= MARGIN:
                break
        else:
            raise SystemExit(f"no margin for triangle {k}")
        for j, e in enumerate(cand):
            verts.append(list(e) + [1.0] + COLS[(k + j) % 6])
    return verts


verts = near_vertices(tris)
DEPTH = {"depth_attachment": {"format": "D32_SFLOAT", "clear": 1.0, "test": True,
                              "write": True, "compare": "less"}}
write("near_plane", base("vs_near.spv", "fs_near.spv", verts, DEPTH))
# near_plane_linear: noperspective colours (vs_near_linear) into a float attachment: the
# values at the vertices clipping makes are D3D10's / Vulkan's screen-space ones
# (PA_CL_CLIP_CNTL.DX_LINEAR_ATTR_CLIP_ENA), not the perspective ones. The same
# triangles but the first: lavapipe 22.3 draws NaN noperspective values over every
# variant of near_plane's floor tried (most likely its clipper's screen-space t, which
# picks the axis by clip-space x/y and is 0/0 on an edge lying on one of its x/y planes:
# draw_pipe_clip.c, read, not traced), so this one-vertex-behind triangle is another
tris = [[(-0.9, -0.9, -2.0), (0.9, -0.7, -2.5), (0.2, 0.5, 0.3)]] + tris[1:]
verts = near_vertices(tris)
write("near_plane_linear", base("vs_near_linear.spv", "fs_near_linear.spv", verts, dict(
    DEPTH, color_attachments=[{"format": "R32G32B32A32_SFLOAT", "clear": [0.0, 0.0, 0.0, 0.0]}])))
