//! Graphics draws: runs a vertex + pixel pipeline over a draw description and returns the
//! attachments, as the fixed-function hardware around the shaders would (docs/draw.md).
//!
//! Pipeline of one `run`:
//! 1. `vertex`: vertex waves — GFX9 hardware VS waves over the vertex stream, or
//!    GFX10.3/GFX11 NGG waves over groups of primitives (with `GS_ALLOC_REQ` and a
//!    primitive export) — giving every primitive its three vertices' positions and
//!    parameters (exports, or the GFX11 attribute ring in memory).
//! 2. `raster`: viewport transform, culling, the rasteriser (8-bit sub-pixel snapping,
//!    top-left rule, pixel centres), barycentrics, 2×2 quads.
//! 3. `pixel`: quads packed into pixel waves in primitive order (helper lanes included),
//!    the attribute data of the wave's primitives written to its LDS for `v_interp` /
//!    `lds_param_load`, and the exports converted by SPI_SHADER_COL_FORMAT into the
//!    attachments with the depth test and blending (`output`).
//!
//! Every shader-visible fact of the launch (SGPRs, VGPRs, LDS layout, memory addresses)
//! is in `launch` and docs/draw.md. Strict rules beyond the compute ones: a vertex
//! wave must export position 0 for every vertex (with `done` on its last position
//! export), an NGG wave must request exactly its vertex and primitive counts and export
//! every primitive, and a pixel wave must end with a `done` export.
//!
//! Invariant: results depend only on the pipeline and the description (waves run one at
//! a time, in primitive order), so a run is deterministic.

pub mod desc;
pub mod launch;
pub mod output;
pub mod pixel;
pub mod png;
pub mod raster;
pub mod shaders;
pub mod vertex;

use crate::error::Result;
use crate::wave::Checks;
pub use desc::{Desc, DescError, Draw};
pub use shaders::Pipeline;

/// The attachments after a draw: tightly packed rows in each attachment's format, one
/// plane of `width` × `height` pixels per layer and sample, layer 0's samples first and
/// sample 0 first within a layer (docs/draw.md).
#[derive(Clone, Debug, PartialEq)]
pub struct Images {
    pub width: u32,
    pub height: u32,
    /// Samples per pixel (planes per attachment and layer).
    pub samples: u32,
    /// Array layers per attachment: `layers` × `samples` planes, layer-major.
    pub layers: u32,
    /// Every sample of each colour attachment.
    pub color: Vec<Vec<u8>>,
    /// Each colour attachment resolved to one sample (`output::resolve`; = `color` for
    /// one sample).
    pub resolved: Vec<Vec<u8>>,
    /// f32 per sample, planes as `color`.
    pub depth: Option<Vec<u8>>,
}

/// What the draw did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DrawStats {
    pub vertex_waves: u64,
    pub primitives: u64,
    pub pixel_waves: u64,
    pub quads: u64,
    pub instructions: u64,
}

/// Run options.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    pub checks: Checks,
    /// Instructions per wave.
    pub budget: u64,
    /// Instructions of the whole draw.
    pub draw_budget: u64,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            checks: Checks::default(),
            budget: 1_000_000,
            draw_budget: crate::dispatch::DEFAULT_DISPATCH_BUDGET,
        }
    }
}

/// Runs the draw of `p` with the state of `d` (each draw of a multi-draw in order); `entries` are the values of user-data
/// entries 0.. (`UserData::Entry(n)`, `None`: not given; `launch::entries(d)` is what a
/// draw of gcnc's graphics ABI needs).
pub fn run(
    p: &Pipeline,
    d: &Draw,
    entries: &[Option<u32>],
    opt: &Options,
) -> Result<(Images, DrawStats)> {
    let mut stats = DrawStats::default();
    let mut env = launch::DrawMemory::new(p, d)?;
    let mut fb = output::Framebuffer::new(d);
    // a multi-draw's draws one after another into the same attachments
    for one in d.each_draw() {
        let prims = vertex::run(p, &one, entries, opt, &mut env, &mut stats)?;
        stats.primitives += prims.len() as u64;
        let setups = raster::setup_all(p, &one, &prims)?;
        pixel::run(
            p, &one, entries, opt, &mut env, &setups, &mut fb, &mut stats,
        )?;
    }
    Ok((fb.images(), stats))
}

/// Writes a draw's attachments into `dir` as docs/draw.md lays them out: per colour
/// attachment i `color_<i>.raw` (every sample: one plane of tightly packed rows per
/// sample, sample 0 first) and `color_<i>.png` (the resolved image), with more than one
/// sample also `color_<i>.resolved.raw`; `depth.raw` (f32 per sample, planes likewise).
/// A layered attachment holds each layer's planes in turn, layer 0 first (its PNG the
/// resolved layers stacked top to bottom).
/// `color` and `resolved` are as in `Images`; errors name the file.
pub fn write_files(
    dir: &std::path::Path,
    d: &Draw,
    color: &[Vec<u8>],
    resolved: &[Vec<u8>],
    depth: Option<&[u8]>,
) -> std::result::Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let write = |name: String, bytes: &[u8]| {
        let p = dir.join(name);
        std::fs::write(&p, bytes).map_err(|e| format!("{}: {e}", p.display()))
    };
    let attachments = color.iter().zip(resolved).zip(&d.desc.color_attachments);
    for (i, ((c, r), a)) in attachments.enumerate() {
        write(format!("color_{i}.raw"), c)?;
        if d.desc.samples > 1 {
            write(format!("color_{i}.resolved.raw"), r)?;
        }
        let rgba = png::to_rgba8(a.format, r);
        write(
            format!("color_{i}.png"),
            &png::encode(d.width, d.height * d.layers(), &rgba),
        )?;
    }
    if let Some(z) = depth {
        write("depth.raw".into(), z)?;
    }
    Ok(())
}
