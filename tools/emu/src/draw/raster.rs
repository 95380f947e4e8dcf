//! Primitive setup and the rasteriser: viewport transform, facing and culling, coverage
//! with the top-left rule at pixel centres, barycentrics.
//!
//! Facts (Vulkan's rules, as lavapipe and the hardware implement them):
//! - Viewport: x_f = x + width/2 · (1 + x/w), y_f = y + height/2 · (1 + y/w),
//!   z_f = min_depth + (max_depth − min_depth) · z/w. Scissor = the viewport rectangle
//!   (clipped to the framebuffer): x/y clipping is the scissor, there is no guard band
//!   to leave. With several viewports (multiViewport) a primitive takes the viewport, and
//!   its scissor, that its provoking vertex's gl_ViewportIndex selects (pos1.z bits 31:16
//!   with PA_CL_VS_OUT_CNTL.USE_VTX_VIEWPORT_INDX, else 0), and draws into the attachment
//!   layer its gl_Layer selects (bits 15:0 with USE_VTX_RENDER_TARGET_INDX); an index
//!   beyond the description's viewports or layers is an error (Vulkan: undefined).
//! - Clipping against w (`clip_near`): a triangle or line with a vertex at w ≤ 0 is
//!   clipped in clip space against Vulkan's near and far planes (z ≥ 0, z ≤ w: every
//!   vertex with w ≤ 0 is outside one of them) before the viewport transform, as a
//!   clipper that makes new vertices does: each new vertex's position, distances and
//!   smooth parameters are the clip-space interpolation of its edge's endpoints (exact
//!   for perspective-correct inputs, whose values are linear in clip space), its flat
//!   parameters — and, in the clipped polygon, every vertex's — the provoking vertex's;
//!   the polygon is drawn as a fan of sub-primitives from its first vertex, each its
//!   own primitive to the pixel stage (so the pixel shader's I, J are relative to the
//!   sub-triangle, and its P0/P10/P20 hold the sub-triangle's vertices). A point with
//!   w ≤ 0 is outside the clip volume and dropped. Refused (`Unsupported`), as
//!   Vulkan's values would differ: noperspective inputs (LINEAR_* enabled: Vulkan
//!   interpolates them at a new vertex linearly in framebuffer space) and per-vertex
//!   (passthrough) inputs of a clipped primitive. Primitives whose vertices all have
//!   w > 0 are not clipped here (depth clipping is per sample, below).
//! - User clip and cull distances (PA_CL_VS_OUT_CNTL CLIP_DIST_ENA_n / CULL_DIST_ENA_n,
//!   `vertex.rs`): a primitive is culled when one cull distance is negative at every
//!   vertex; each clip distance is interpolated perspective-correctly (it is linear in
//!   clip space, as Vulkan defines it) at every sample location, and a sample where one
//!   is negative is not covered. Vulkan clips the primitive geometrically at the plane
//!   distance = 0 instead, and lavapipe snaps the new vertices to its sub-pixel grid,
//!   so the two differ only for a sample location within that snapping distance of the
//!   zero line (its side decided by the rounding of the new edge); the tests keep
//!   sample locations off it, where both rules cover the same samples.
//! - Positions snap to 1/256 pixel (8 sub-pixel bits); a pixel is covered when its centre
//!   (x + ½, y + ½) is inside all three edges, or exactly on an edge that is a top edge
//!   (horizontal, interior below) or a left edge (interior to its right), in framebuffer
//!   coordinates (y down).
//! - Facing: Vulkan's a = −½ Σ x_i·y_{i+1} − x_{i+1}·y_i over the framebuffer
//!   positions; front-facing when a > 0 for counter_clockwise, a < 0 for clockwise.
//!   Zero-area triangles are dropped.
//! - Depth clipping: a sample whose interpolated z/w is outside [0, 1] is not covered
//!   (equivalent to clipping against the near and far planes).
//! - Barycentrics (b0, b1, b2) are the screen-space weights at a pixel centre, also for
//!   pixels outside the triangle (helper lanes); perspective-correct ones divide by each
//!   vertex's w and renormalise.
//! - Points (`Shape::Point`): a square of side the point size (`pos1.x` when
//!   PA_CL_VS_OUT_CNTL.USE_VTX_POINT_SIZE, else PA_SU_POINT_SIZE; clamped to
//!   PA_SU_POINT_MINMAX; 12.4 fixed point, as the registers hold it) centred on the
//!   vertex; a pixel is covered when its centre is in [left, right) × [top, bottom).
//!   The hardware draws the point as a sprite whose vertices 0, 1, 2 are its top-left,
//!   top-right and bottom-left corners: b1 = (x − left)/size, b2 = (y − top)/size (so
//!   the point sprite coordinate (S, T) = (b1, b2), T = 0 at the top with
//!   PNT_SPRITE_TOP_1 = 0), all three with the point's attributes.
//! - Lines (`Shape::Line`, width 1): Vulkan's non-strict parallelogram: for an x-major
//!   line (|dx| ≥ |dy|) the pixels whose centre x is in [min x, max x) of the endpoints
//!   and whose centre is at most ½ above or less than ½ below the line at that x (y-major
//!   alike with the axes swapped). Exact where no pixel centre is on the
//!   parallelogram's boundary; lavapipe's rule (and the hardware's diamond-exit one)
//!   decide those boundary pixels differently, so the corpus's lines keep centres off
//!   it. The weights are Vulkan's t = (p − a)·(b − a)/|b − a|²: (1 − t, t, 0).
//!   Points and lines are front-facing and never culled.
//! - Multisampling (`samples` > 1, triangles only): coverage, depth clipping and the
//!   per-sample barycentrics are evaluated at Vulkan's standard sample locations
//!   (`gcnc::amdgpu::abi_graphics::standard_sample_positions`, in 1/16 pixel, so exact
//!   at 1/256), with the same top-left rule.
//!   Points and lines with more than one sample are `Unsupported` (Vulkan rasterizes them
//!   as rectangles then, which this rasteriser does not model).

use super::desc::{CullMode, FrontFace, Viewport};
use super::shaders::Pipeline;
use super::vertex::{Prim, VertexOut};
use super::Draw;
use crate::error::{Error, ErrorKind, Result};
use gcnc::amdgpu::abi_graphics::standard_sample_positions;
use gcnc::amdgpu::isel::graphics::ps_input::{LINEAR_CENTER, LINEAR_CENTROID, LINEAR_SAMPLE};

const SUBPIXEL: f64 = 256.0;
/// Positions further than this many pixels from the origin are refused (fixed-point range).
const MAX_COORD: f64 = 1.0e6;

/// What a primitive covers.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Shape {
    Triangle,
    /// v[0] → v[1]; `xmajor`: |dx| ≥ |dy|.
    Line {
        xmajor: bool,
    },
    /// Centred on v[0]; `half` the half side (1/256 pixel).
    Point {
        half: i64,
    },
}

/// One primitive ready to rasterise.
#[derive(Clone, Debug)]
pub struct Setup {
    /// Index among the primitives that reached the rasteriser, in API order.
    pub prim: usize,
    pub shape: Shape,
    /// Snapped framebuffer positions (1/256 pixel).
    pub v: [[i64; 2]; 3],
    /// edge(v0, v1, v2) in the original vertex order.
    pub area2: i64,
    pub front: bool,
    /// The attachment layer the primitive draws into (its provoking vertex's gl_Layer).
    pub layer: u32,
    /// Its viewport's scissor rectangle (`scissor`).
    pub scissor: (u32, u32, u32, u32),
    pub inv_w: [f64; 3],
    /// 1/w of each vertex is `inv_w`; `w` the clip w.
    pub w: [f64; 3],
    pub z_ndc: [f64; 3],
    pub z_f: [f64; 3],
    /// Per enabled clip distance, its value at the three vertices.
    pub clip: Vec<[f64; 3]>,
    pub params: [Vec<Option<[u32; 4]>>; 3],
    /// Pixel bounds (inclusive), inside the scissor.
    pub x0: u32,
    pub y0: u32,
    pub x1: u32,
    pub y1: u32,
}

fn edge(a: [i64; 2], b: [i64; 2], p: [i64; 2]) -> i64 {
    (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0])
}

fn top_left(a: [i64; 2], b: [i64; 2]) -> bool {
    let (dx, dy) = (b[0] - a[0], b[1] - a[1]);
    (dy == 0 && dx > 0) || dy < 0
}

/// The scissor rectangle of viewport `vp` (scissor = viewport) in pixels:
/// [x0, x1) × [y0, y1).
pub fn scissor(d: &Draw, vp: Viewport) -> (u32, u32, u32, u32) {
    let x0 = vp.x.max(0.0) as u32;
    let y0 = vp.y.max(0.0) as u32;
    let x1 = ((vp.x + vp.width).max(0.0) as u32).min(d.width);
    let y1 = ((vp.y + vp.height).max(0.0) as u32).min(d.height);
    (x0, y0, x1, y1)
}

/// Sets up every primitive; culled (by face or cull distance), clipped away and
/// zero-area ones are dropped, and one clipped against w may become several.
pub fn setup_all(pipe: &Pipeline, d: &Draw, prims: &[Prim]) -> Result<Vec<Setup>> {
    let nv = d.desc.topology.vertices();
    if nv < 3 && d.desc.samples > 1 {
        return Err(Error::unsupported(format!(
            "{} with {} samples (multisampled points and lines are rectangles, not modelled)",
            if nv == 1 { "points" } else { "lines" },
            d.desc.samples
        )));
    }
    let cull = (pipe.vs_out_cntl >> 8 & 0xff) as usize;
    let mut out = Vec::new();
    for (i, p) in prims.iter().enumerate() {
        // a cull distance negative at every vertex culls the primitive
        if (0..8).any(|n| cull >> n & 1 == 1 && p[..nv].iter().all(|v| v.distances[n] < 0.0)) {
            continue;
        }
        for sub in clip_near(i, p, nv, pipe.ps_input_ena, &pipe.ps_input_cntl)? {
            if let Some(s) = setup_one(pipe, d, i, &sub)? {
                out.push(s);
            }
        }
    }
    Ok(out)
}

/// Sets up primitive `i` (`p`: every vertex at w > 0); `None` when it is culled or
/// covers nothing.
fn setup_one(pipe: &Pipeline, d: &Draw, i: usize, p: &Prim) -> Result<Option<Setup>> {
    // the provoking vertex's viewport and layer (Vulkan leaves an index beyond the
    // viewports or layers undefined: an error here)
    let vps = d.viewports();
    let vp = *vps.get(p[0].viewport as usize).ok_or_else(|| {
        Error::new(ErrorKind::Graphics(format!(
            "primitive {i} selects viewport {} of {} (gl_ViewportIndex)",
            p[0].viewport,
            vps.len()
        )))
    })?;
    if p[0].layer >= d.layers() {
        return Err(Error::new(ErrorKind::Graphics(format!(
            "primitive {i} selects layer {} of {} (gl_Layer)",
            p[0].layer,
            d.layers()
        ))));
    }
    let r = d.desc.rasterization;
    let (sx0, sy0, sx1, sy1) = scissor(d, vp);
    let mut v = [[0i64; 2]; 3];
    let mut w = [0f64; 3];
    let mut z_ndc = [0f64; 3];
    let mut z_f = [0f64; 3];
    for k in 0..3 {
        let [x, y, z, pw] = p[k].pos.map(|c| c as f64);
        if pw.is_nan() || pw <= 0.0 {
            return Err(Error::unsupported(format!(
                "primitive {i} vertex {k} has w = {pw} after clipping (it passes \
                 through the eye)"
            )));
        }
        let xf = vp.x as f64 + vp.width as f64 / 2.0 * (1.0 + x / pw);
        let yf = vp.y as f64 + vp.height as f64 / 2.0 * (1.0 + y / pw);
        if !(xf.abs() < MAX_COORD && yf.abs() < MAX_COORD) {
            return Err(Error::unsupported(format!(
                "primitive {i} vertex {k} at ({xf}, {yf}) is beyond the rasteriser's range"
            )));
        }
        v[k] = [
            (xf * SUBPIXEL).round() as i64,
            (yf * SUBPIXEL).round() as i64,
        ];
        w[k] = pw;
        z_ndc[k] = z / pw;
        z_f[k] = vp.min_depth as f64 + (vp.max_depth - vp.min_depth) as f64 * z / pw;
    }
    let nv = d.desc.topology.vertices();
    let (shape, area2, front) = match nv {
        1 => {
            let half = point_half(pipe, i, &p[0])?;
            if half == 0 {
                return Ok(None);
            }
            (Shape::Point { half }, 0, true)
        }
        2 => {
            let (dx, dy) = (v[1][0] - v[0][0], v[1][1] - v[0][1]);
            if dx == 0 && dy == 0 {
                return Ok(None);
            }
            (
                Shape::Line {
                    xmajor: dx.abs() >= dy.abs(),
                },
                0,
                true,
            )
        }
        _ => {
            let area2 = edge(v[0], v[1], v[2]);
            if area2 == 0 {
                return Ok(None);
            }
            // Vulkan's a is −area2/2 in these (y-down) coordinates
            let front = match r.front_face {
                FrontFace::CounterClockwise => area2 < 0,
                FrontFace::Clockwise => area2 > 0,
            };
            match r.cull_mode {
                CullMode::Back if !front => return Ok(None),
                CullMode::Front if front => return Ok(None),
                _ => {}
            }
            (Shape::Triangle, area2, front)
        }
    };
    // the shape's extent around the vertices (1/256 pixel)
    let grow = match shape {
        Shape::Triangle => 0,
        Shape::Line { .. } => SUBPIXEL as i64,
        Shape::Point { half } => half,
    };
    let lo = |c: usize, lim: u32| {
        let m = v.iter().map(|p| p[c]).min().unwrap_or(0) - grow;
        (((m as f64 / SUBPIXEL).floor() as i64).max(lim as i64)) as u32
    };
    let hi = |c: usize, lim: u32| {
        let m = v.iter().map(|p| p[c]).max().unwrap_or(0) + grow;
        ((m as f64 / SUBPIXEL).ceil() as i64).min(lim as i64 - 1)
    };
    let (x0, y0) = (lo(0, sx0), lo(1, sy0));
    let (x1, y1) = (hi(0, sx1), hi(1, sy1));
    if x1 < x0 as i64 || y1 < y0 as i64 {
        return Ok(None);
    }
    let clip_ena = pipe.vs_out_cntl & 0xff;
    let clip = (0..8)
        .filter(|n| clip_ena >> n & 1 == 1)
        .map(|n| [0, 1, 2].map(|k| p[k].distances[n] as f64))
        .collect();
    Ok(Some(Setup {
        prim: i,
        shape,
        v,
        area2,
        front,
        layer: p[0].layer,
        scissor: (sx0, sy0, sx1, sy1),
        inv_w: w.map(|x| 1.0 / x),
        w,
        z_ndc,
        z_f,
        clip,
        params: [
            p[0].params.clone(),
            p[1].params.clone(),
            p[2].params.clone(),
        ],
        x0,
        y0,
        x1: x1 as u32,
        y1: y1 as u32,
    }))
}

/// Primitive `i` (the first `nv` vertices of `p`) clipped against the near (z ≥ 0) and
/// far (z ≤ w) planes when a vertex has w ≤ 0 (module docs): `p` itself when none has,
/// else the fan of what is left (nothing for a point). `ps_input_ena` and
/// `ps_input_cntl` are the pipeline's SPI_PS_INPUT_ENA and SPI_PS_INPUT_CNTL_i.
fn clip_near(
    i: usize,
    p: &Prim,
    nv: usize,
    ps_input_ena: u32,
    ps_input_cntl: &[u32],
) -> Result<Vec<Prim>> {
    // NaN positions go on to `setup_one`, which refuses them
    if p[..nv].iter().all(|v| !(v.pos[3] <= 0.0)) {
        return Ok(vec![p.clone()]);
    }
    if nv == 1 {
        return Ok(Vec::new());
    }
    if ps_input_ena & LINEAR_INPUTS != 0 {
        return Err(Error::unsupported(format!(
            "primitive {i} is clipped against w and the pixel shader has noperspective \
             inputs (SPI_PS_INPUT_ENA {:#x}): Vulkan interpolates them at the new vertices \
             in framebuffer space, which is not modelled",
            ps_input_ena
        )));
    }
    let mut flat = Vec::new();
    for (k, &c) in ps_input_cntl.iter().enumerate() {
        match (c & 0x20 != 0, c >> 10 & 1 == 1) {
            (true, true) => {
                return Err(Error::unsupported(format!(
                    "primitive {i} is clipped against w and pixel shader input {k} reads \
                     per-vertex values"
                )))
            }
            (false, true) => flat.push(c & 0x3f),
            _ => {}
        }
    }
    // the planes as signed distances, and what a vertex on each is exactly
    let near = |v: &VertexOut| v.pos[2] as f64;
    let far = |v: &VertexOut| v.pos[3] as f64 - v.pos[2] as f64;
    let planes: [(&dyn Fn(&VertexOut) -> f64, bool); 2] = [(&near, true), (&far, false)];
    let mut poly: Vec<VertexOut> = p[..nv].to_vec();
    for (dist, is_near) in planes {
        let on_plane = |mut v: VertexOut| {
            v.pos[2] = if is_near { 0.0 } else { v.pos[3] };
            v
        };
        let n = poly.len();
        let mut next = Vec::new();
        // a line is one open segment, a triangle a closed polygon
        let edges = if nv == 2 { n - 1 } else { n };
        for k in 0..n {
            let cur = &poly[k];
            let dc = dist(cur);
            if dc >= 0.0 {
                next.push(cur.clone());
            }
            if k < edges {
                let nxt = &poly[(k + 1) % n];
                let dn = dist(nxt);
                if (dc >= 0.0) != (dn >= 0.0) {
                    next.push(on_plane(lerp_vertex(cur, nxt, dc / (dc - dn), &flat)));
                }
            }
        }
        poly = next;
    }
    if poly.len() < nv {
        return Ok(Vec::new());
    }
    // flat inputs (and the layer and viewport) take the provoking vertex's values at
    // every vertex of the polygon
    for v in &mut poly {
        v.layer = p[0].layer;
        v.viewport = p[0].viewport;
        for &n in &flat {
            if let Some(x) = v.params.get_mut(n as usize) {
                *x = p[0].params.get(n as usize).copied().flatten();
            }
        }
    }
    Ok(match nv {
        2 => vec![[poly[0].clone(), poly[1].clone(), poly[1].clone()]],
        _ => (1..poly.len() - 1)
            .map(|k| [poly[0].clone(), poly[k].clone(), poly[k + 1].clone()])
            .collect(),
    })
}

/// SPI_PS_INPUT_ENA's LINEAR_SAMPLE, LINEAR_CENTER and LINEAR_CENTROID.
const LINEAR_INPUTS: u32 = 1 << LINEAR_SAMPLE | 1 << LINEAR_CENTER | 1 << LINEAR_CENTROID;

/// The vertex at `t` from `a` to `b` in clip space: position, distances and the
/// parameters not in `flat` interpolated (as f32 channels), the rest `a`'s.
fn lerp_vertex(a: &VertexOut, b: &VertexOut, t: f64, flat: &[u32]) -> VertexOut {
    let f = |x: f32, y: f32| (x as f64 + t * (y as f64 - x as f64)) as f32;
    let params = (0..a.params.len().max(b.params.len()))
        .map(|n| {
            let (x, y) = (
                a.params.get(n).copied().flatten(),
                b.params.get(n).copied().flatten(),
            );
            match (x, y) {
                (Some(x), Some(y)) if !flat.contains(&(n as u32)) => {
                    Some(std::array::from_fn(|c| {
                        f(f32::from_bits(x[c]), f32::from_bits(y[c])).to_bits()
                    }))
                }
                (x, _) => x,
            }
        })
        .collect();
    VertexOut {
        pos: std::array::from_fn(|c| f(a.pos[c], b.pos[c])),
        params,
        point_size: a.point_size,
        shading_rate: a.shading_rate,
        layer: a.layer,
        viewport: a.viewport,
        distances: std::array::from_fn(|c| f(a.distances[c], b.distances[c])),
    }
}

/// The half side of point `i` (vertex `v`) in 1/256 pixel, as the hardware takes it:
/// the vertex's `pos1.x` with USE_VTX_POINT_SIZE, else PA_SU_POINT_SIZE; in 12.4 fixed
/// point (1/16 pixel of half size, rounded to nearest) and clamped to PA_SU_POINT_MINMAX.
fn point_half(p: &Pipeline, i: usize, v: &super::vertex::VertexOut) -> Result<i64> {
    let half = if p.vtx_point_size {
        let size = v.point_size.ok_or_else(|| {
            Error::new(ErrorKind::Graphics(format!(
                "point {i}: USE_VTX_POINT_SIZE is set but its vertex has no pos1.x export"
            )))
        })?;
        if !(size >= 0.0) {
            return Err(Error::unsupported(format!("point {i} has size {size}")));
        }
        ((size as f64 * 8.0).round() as i64).min(0xffff)
    } else {
        (p.point_size >> 16 & 0xffff) as i64
    };
    let (min, max) = (p.point_minmax & 0xffff, p.point_minmax >> 16);
    // 12.4 fixed point → 1/256 pixel
    Ok(half.clamp(min as i64, (max as i64).max(min as i64)) * 16)
}

/// The pixel centre as a position inside the pixel (1/256 pixel).
pub const CENTRE: [i64; 2] = [SUBPIXEL as i64 / 2, SUBPIXEL as i64 / 2];

/// Sample `s` of a `samples`-sample pixel as a position inside the pixel (1/256 pixel).
pub fn sample_offset(samples: u32, s: u32) -> [i64; 2] {
    let p = standard_sample_positions(samples).expect("a validated sample count")[s as usize];
    [p[0] as i64 * 16, p[1] as i64 * 16]
}

impl Setup {
    /// Position `off` (1/256 pixel) inside pixel (px, py).
    fn at(px: u32, py: u32, off: [i64; 2]) -> [i64; 2] {
        [
            px as i64 * SUBPIXEL as i64 + off[0],
            py as i64 * SUBPIXEL as i64 + off[1],
        ]
    }

    /// Whether the centre of pixel (px, py) is inside (top-left rule; no depth clip).
    pub fn covers(&self, px: u32, py: u32) -> bool {
        self.covers_at(px, py, CENTRE)
    }

    /// Whether position `off` inside pixel (px, py) is inside (top-left rule) with no
    /// clip distance negative there (no depth clip): a sample's coverage.
    pub fn covers_at(&self, px: u32, py: u32, off: [i64; 2]) -> bool {
        if !self.inside_at(px, py, off) {
            return false;
        }
        if self.clip.is_empty() {
            return true;
        }
        let b = self.persp(self.bary_at(px, py, off));
        self.clip.iter().all(|d| Setup::lerp(b, *d) >= 0.0)
    }

    /// Whether position `off` inside pixel (px, py) is inside the shape (top-left rule).
    fn inside_at(&self, px: u32, py: u32, off: [i64; 2]) -> bool {
        let p = Setup::at(px, py, off);
        match self.shape {
            Shape::Triangle => {}
            Shape::Point { half } => {
                let c = self.v[0];
                return (c[0] - half..c[0] + half).contains(&p[0])
                    && (c[1] - half..c[1] + half).contains(&p[1]);
            }
            Shape::Line { xmajor } => {
                // (major, minor) axes
                let (ma, mi) = if xmajor { (0, 1) } else { (1, 0) };
                let (a, b) = (self.v[0], self.v[1]);
                let (lo, hi) = (a[ma].min(b[ma]), a[ma].max(b[ma]));
                if !(lo..hi).contains(&p[ma]) {
                    return false;
                }
                let t = (p[ma] - a[ma]) as f64 / (b[ma] - a[ma]) as f64;
                let on = a[mi] as f64 + t * (b[mi] - a[mi]) as f64;
                let off = p[mi] as f64 - on;
                let h = SUBPIXEL / 2.0;
                return -h <= off && off < h;
            }
        }
        let [a, b, c] = if self.area2 > 0 {
            self.v
        } else {
            [self.v[0], self.v[2], self.v[1]]
        };
        [(b, c), (c, a), (a, b)].iter().all(|&(s, e)| {
            let w = edge(s, e, p);
            w > 0 || (w == 0 && top_left(s, e))
        })
    }

    /// Screen-space barycentrics at the centre of (px, py).
    pub fn bary(&self, px: u32, py: u32) -> [f64; 3] {
        self.bary_at(px, py, CENTRE)
    }

    /// Screen-space barycentrics at position `off` inside (px, py).
    pub fn bary_at(&self, px: u32, py: u32, off: [i64; 2]) -> [f64; 3] {
        let p = Setup::at(px, py, off);
        match self.shape {
            Shape::Triangle => {}
            Shape::Point { half } => {
                let size = (2 * half).max(1) as f64;
                let i = (p[0] - (self.v[0][0] - half)) as f64 / size;
                let j = (p[1] - (self.v[0][1] - half)) as f64 / size;
                return [1.0 - i - j, i, j];
            }
            Shape::Line { .. } => {
                let (a, b) = (self.v[0], self.v[1]);
                let d = [(b[0] - a[0]) as f64, (b[1] - a[1]) as f64];
                let t = ((p[0] - a[0]) as f64 * d[0] + (p[1] - a[1]) as f64 * d[1])
                    / (d[0] * d[0] + d[1] * d[1]);
                return [1.0 - t, t, 0.0];
            }
        }
        let a = self.area2 as f64;
        let b1 = edge(self.v[2], self.v[0], p) as f64 / a;
        let b2 = edge(self.v[0], self.v[1], p) as f64 / a;
        [1.0 - b1 - b2, b1, b2]
    }

    /// Perspective-correct barycentrics from screen-space ones.
    pub fn persp(&self, b: [f64; 3]) -> [f64; 3] {
        let q = [
            b[0] * self.inv_w[0],
            b[1] * self.inv_w[1],
            b[2] * self.inv_w[2],
        ];
        let s = q[0] + q[1] + q[2];
        [q[0] / s, q[1] / s, q[2] / s]
    }

    /// Interpolates per-vertex values with screen-space weights.
    pub fn lerp(b: [f64; 3], v: [f64; 3]) -> f64 {
        b[0] * v[0] + b[1] * v[1] + b[2] * v[2]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A triangle from pixel positions (1/256 pixel after snapping), w = 1, z = 0.5.
    fn triangle(p: [[f64; 2]; 3]) -> Setup {
        let v = p.map(|q| q.map(|c| (c * SUBPIXEL).round() as i64));
        Setup {
            prim: 0,
            shape: Shape::Triangle,
            v,
            area2: edge(v[0], v[1], v[2]),
            front: true,
            layer: 0,
            scissor: (0, 0, 16, 16),
            inv_w: [1.0; 3],
            w: [1.0; 3],
            z_ndc: [0.5; 3],
            z_f: [0.5; 3],
            clip: Vec::new(),
            params: [Vec::new(), Vec::new(), Vec::new()],
            x0: 0,
            y0: 0,
            x1: 15,
            y1: 15,
        }
    }

    /// The samples of pixel (x, y) `s` covers.
    fn mask(s: &Setup, n: u32, x: u32, y: u32) -> u32 {
        (0..n)
            .filter(|&k| s.covers_at(x, y, sample_offset(n, k)))
            .map(|k| 1 << k)
            .sum()
    }

    #[test]
    fn sample_offsets_are_vulkans_standard_locations() {
        let px = |n: u32| -> Vec<(f64, f64)> {
            (0..n)
                .map(|k| {
                    let o = sample_offset(n, k);
                    (o[0] as f64 / SUBPIXEL, o[1] as f64 / SUBPIXEL)
                })
                .collect()
        };
        assert_eq!(px(1), [(0.5, 0.5)]);
        assert_eq!(px(2), [(0.75, 0.75), (0.25, 0.25)]);
        assert_eq!(
            px(4),
            [
                (0.375, 0.125),
                (0.875, 0.375),
                (0.125, 0.625),
                (0.625, 0.875)
            ]
        );
        assert_eq!(
            px(8),
            [
                (0.5625, 0.3125),
                (0.4375, 0.6875),
                (0.8125, 0.5625),
                (0.3125, 0.1875),
                (0.1875, 0.8125),
                (0.0625, 0.4375),
                (0.6875, 0.9375),
                (0.9375, 0.0625)
            ]
        );
        assert_eq!(CENTRE, sample_offset(1, 0));
    }

    #[test]
    fn coverage_is_per_sample_location_with_the_top_left_rule() {
        // left edge x = 0.8 (interior to the right), bottom edge y = 12.2, hypotenuse
        // far away
        let s = triangle([[0.8, -47.8], [0.8, 12.2], [60.8, 12.2]]);
        // pixel column 0: of the 4x locations only sample 1 (x = 0.875) is right of 0.8
        assert_eq!(mask(&s, 4, 0, 5), 0b0010);
        assert_eq!(mask(&s, 4, 1, 5), 0b1111);
        // bottom row 12: only sample 0 (y = 0.125) is above 12.2
        assert_eq!(mask(&s, 4, 5, 12), 0b0001);
        assert_eq!(mask(&s, 4, 5, 13), 0);
        // 2x: x = 0.8 excludes both (0.75, 0.25); 8x: x ≥ 0.8 is samples 2 and 7
        assert_eq!(mask(&s, 2, 0, 5), 0);
        assert_eq!(mask(&s, 8, 0, 5), 1 << 2 | 1 << 7);
        // one sample: the pixel centre, as `covers`
        assert_eq!(mask(&s, 1, 0, 5), s.covers(0, 5) as u32);
        assert!(!s.covers(0, 5));
        // a location exactly on the left edge is inside (a left edge), on the
        // bottom edge (neither top nor left) outside
        let e = triangle([[0.875, -47.8], [0.875, 12.875], [60.8, 12.875]]);
        assert_eq!(mask(&e, 4, 0, 5), 0b0010);
        assert_eq!(mask(&e, 4, 5, 12), 0b0011 | 0b0100);
    }

    #[test]
    fn barycentrics_at_a_sample_are_those_of_its_location() {
        let s = triangle([[0.0, 0.0], [16.0, 0.0], [0.0, 16.0]]);
        for k in 0..4 {
            let o = sample_offset(4, k);
            let (x, y) = (3.0 + o[0] as f64 / SUBPIXEL, 5.0 + o[1] as f64 / SUBPIXEL);
            let b = s.bary_at(3, 5, o);
            assert!((b[1] - x / 16.0).abs() < 1e-12 && (b[2] - y / 16.0).abs() < 1e-12);
        }
        assert_eq!(s.bary(3, 5), s.bary_at(3, 5, CENTRE));
    }

    fn vertex(pos: [f32; 4], param: [f32; 4]) -> VertexOut {
        VertexOut {
            pos,
            params: vec![Some(param.map(f32::to_bits)), Some([7, 8, 9, 10])],
            point_size: None,
            shading_rate: None,
            layer: 0,
            viewport: 0,
            distances: [0.0; 8],
        }
    }

    /// Parameter 0 smooth, parameter 1 flat (SPI_PS_INPUT_CNTL FLAT_SHADE).
    const CNTL: [u32; 2] = [0, 1 | 1 << 10];

    #[test]
    fn a_vertex_behind_the_eye_leaves_a_fan_of_two_clipped_at_the_near_plane() {
        // vertex 2 at w < 0 and z < 0: edge 1–2 crosses z = 0 at t = ¼, edge 2–0 at ¾
        let mut p = [
            vertex([0.0, 0.0, 0.5, 1.0], [0.0; 4]),
            vertex([1.0, 0.0, 0.5, 1.0], [1.0; 4]),
            vertex([0.0, 1.0, -1.5, -1.0], [3.0; 4]),
        ];
        p[1].params[1] = Some([1, 2, 3, 4]);
        p[2].distances[0] = 4.0;
        let subs = clip_near(0, &p, 3, 0, &CNTL).unwrap();
        assert_eq!(subs.len(), 2);
        // the polygon 0, 1, (1–2 at ¼), (2–0 at ¾), fanned from vertex 0
        let new12 = &subs[0][2];
        let new20 = &subs[1][2];
        assert_eq!(subs[1][1].pos, new12.pos);
        assert_eq!(new12.pos, [0.75, 0.25, 0.0, 0.5]);
        assert_eq!(new20.pos, [0.0, 0.25, 0.0, 0.5]);
        // smooth parameters and distances interpolated in clip space, flat ones the
        // provoking vertex's at every vertex
        assert_eq!(new12.params[0], Some([1.5f32.to_bits(); 4]));
        assert_eq!(new20.params[0], Some([0.75f32.to_bits(); 4]));
        assert_eq!((new12.distances[0], new20.distances[0]), (1.0, 1.0));
        for v in subs.iter().flatten() {
            assert_eq!(v.params[1], Some([7, 8, 9, 10]));
        }
    }

    #[test]
    fn clipping_against_w_refuses_what_it_would_get_wrong() {
        let p = [
            vertex([0.0, 0.0, 0.5, 1.0], [0.0; 4]),
            vertex([1.0, 0.0, 0.5, 1.0], [1.0; 4]),
            vertex([0.0, 1.0, -1.5, -1.0], [3.0; 4]),
        ];
        // every vertex in front: the primitive itself, even with noperspective inputs
        let front = [p[0].clone(), p[1].clone(), p[0].clone()];
        let linear = 1 << LINEAR_CENTER;
        assert_eq!(clip_near(0, &front, 3, linear, &CNTL).unwrap().len(), 1);
        let e = clip_near(0, &p, 3, linear, &CNTL).unwrap_err();
        assert!(e.to_string().contains("noperspective"), "{e}");
        // a per-vertex (passthrough) input: OFFSET bit 5 with FLAT_SHADE
        let e = clip_near(0, &p, 3, 0, &[0x20 | 1 << 10]).unwrap_err();
        assert!(e.to_string().contains("per-vertex"), "{e}");
        // wholly behind the eye: nothing; a point behind: nothing
        let behind = [p[2].clone(), p[2].clone(), p[2].clone()];
        assert!(clip_near(0, &behind, 3, 0, &CNTL).unwrap().is_empty());
        assert!(clip_near(0, &behind, 1, 0, &CNTL).unwrap().is_empty());
    }

    #[test]
    fn a_negative_clip_distance_uncovers_the_samples_where_it_interpolates_below_zero() {
        let mut s = triangle([[0.0, 0.0], [16.0, 0.0], [0.0, 16.0]]);
        // distance = x − 4.25 (pixels): negative at vertex 0 and 2, positive at 1
        s.clip = vec![[-4.25, 11.75, -4.25]];
        assert!(!s.covers(3, 2));
        assert!(s.covers(4, 2));
        // per sample: pixel 3's locations are all left of x = 4.25; in pixel 4 the 4x
        // sample 2 (x = 4.125) and the 8x samples 4 and 5 (4.1875, 4.0625) are too
        assert_eq!(mask(&s, 4, 3, 2), 0);
        assert_eq!(mask(&s, 4, 4, 2), 0b1011);
        assert_eq!(mask(&s, 8, 4, 2), 0b1100_1111);
    }
}
