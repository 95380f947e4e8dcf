//! Pixel waves: quads of every primitive packed into waves, their inputs, and the output
//! merge of their exports.
//!
//! Quads: for each primitive in order, the aligned 2×2 quads of its bounding box (row by
//! row) with at least one covered pixel; lanes 4k..4k+3 of quad k are (x, y), (x+1, y),
//! (x, y+1), (x+1, y+1) (so DPP quad_perm derivatives work). Uncovered lanes of a quad
//! are helpers: the wave starts with EXEC = the covered lanes (as the hardware does),
//! helpers get their input VGPRs and run once the shader widens EXEC with `s_wqm`; they
//! never write an attachment, and a memory store
//! or atomic with a helper lane in EXEC is an error (`Wave::helpers`: the code must be in
//! exact mode there; lanes the shader demotes itself are not tracked). One wave takes up
//! to lanes/4 quads, from one or more consecutive primitives.
//!
//! Launch: user SGPRs from s0, then PRIM_MASK = `new_prim_mask` (bit k for quad k ≥ 1
//! that starts the wave's next primitive) with LDS parameter offset 0 in bits 31:16.
//! VGPRs: the SPI_PS_INPUT_ADDR slots packed from v0 in bit order (pal-abi.md §3.6), each
//! written only when its ENA bit is set: PERSP_* (I, J of vertices 1 and 2,
//! perspective-correct; sample and centroid equal centre with one sample), LINEAR_* (the
//! same in screen space), POS_X/Y_FLOAT (pixel centre), POS_Z_FLOAT (depth z_f),
//! POS_W_FLOAT (clip w, perspective-interpolated), FRONT_FACE (1.0 front, 0.0 back),
//! ANCILLARY (0: sample 0), SAMPLE_COVERAGE (1 for covered lanes, 0 for helpers),
//! POS_FIXED_PT (x | y << 16). PERSP_PULL_MODEL and LINE_STIPPLE are `Unsupported`.
//! LDS: one block of `NUM_INTERP · 48` bytes per primitive of the wave (`interp.rs`),
//! input i taking parameter `SPI_PS_INPUT_CNTL_i.OFFSET` of the vertices (flat: the
//! provoking vertex's raw bits; OFFSET bit 5: DEFAULT_VAL; OFFSET bit 5 with FLAT_SHADE:
//! passthrough of parameter OFFSET[4:0], P0/P10/P20 = the raw bits of three vertices —
//! in the API's order with ROTATE_PC_PTR (bit 11, GFX10.3+; an error on GFX9), else
//! rotated by the primitive's index mod 3, `interp.rs`). For a point, an input with
//! PT_SPRITE_TEX (bit 17) and SPI_INTERP_CONTROL_0.PNT_SPRITE_ENA takes the sprite
//! coordinates its PNT_SPRITE_OVRD fields select at the sprite's three vertices (`raster`).
//!
//! Output: attachment n's channels are written as CB_TARGET_MASK's nibble n says (the
//! others keep their value; an enabled channel of the format that CB_SHADER_MASK does not
//! export is an error). A wave must end with a `done` export. A lane writes only when covered and in
//! the EXEC of the `done` export (its valid mask: discarded lanes are off); MRT n's
//! colour comes from its last export covering the lane (dual-source blending: both
//! sources, `output.rs`; on GFX11 from the `dual_src_blend` target of the lane's parity,
//! whose export covers the lane). `mrtz` (which needs a non-ZERO SPI_SHADER_Z_FORMAT) is
//! read like a colour export in that format, its (R, G, B, A) being (depth, stencil,
//! sample mask, alpha): the depth is its red with DB_SHADER_CONTROL.Z_EXPORT_ENABLE, else
//! z_f; with MASK_EXPORT_ENABLE its blue (the low 16 bits of a UINT16_ABGR export) is
//! gl_SampleMask, ANDed with the samples the invocation covers, as the hardware does
//! (MASK_EXPORT_ENABLE with a format without blue is an error). Lanes are merged in
//! order (primitive order), depth test first.

use super::launch::{self, DrawMemory};
use super::output::{export_color, Framebuffer};
use super::raster::{sample_offset, Setup, Shape, CENTRE};
use super::shaders::Pipeline;
use super::{Draw, DrawStats, Options};
use crate::error::{Error, ErrorKind, Result};
use crate::export::{Exports, Target};
use crate::interp::ATTR_BYTES;
use crate::memory::Lds;

use gcnc::amdgpu::isel::graphics::ps_input::{
    LINEAR_CENTER, LINEAR_CENTROID, LINEAR_SAMPLE, PERSP_CENTER, PERSP_CENTROID, PERSP_SAMPLE,
};

/// DB_SHADER_CONTROL.Z_EXPORT_ENABLE: the depth is `mrtz`'s red channel.
const Z_EXPORT_ENABLE: u32 = 1;
/// DB_SHADER_CONTROL.MASK_EXPORT_ENABLE: `mrtz`'s blue channel is the sample mask.
const MASK_EXPORT_ENABLE: u32 = 1 << 8;

/// VGPRs of each SPI_PS_INPUT bit.
const INPUT_VGPRS: [u16; 16] = [2, 2, 2, 3, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1];

struct Quad {
    setup: usize,
    x: u32,
    y: u32,
    /// Covered lanes of the quad (bit i = lane i): for a per-sample invocation, the lanes
    /// whose pixel covers its sample.
    cover: u8,
    /// Per lane: the pixel's covered samples (bit s = sample s), the SAMPLE_COVERAGE
    /// input.
    samples: [u8; 4],
    /// Per-sample shading (PS_ITER_SAMPLE): the sample this quad's invocations shade.
    sample: Option<u32>,
}

/// The samples of pixel (x, y) that `s` covers: inside the primitive (top-left rule) and
/// with z/w in [0, 1] at the sample's location.
fn coverage(d: &Draw, s: &Setup, x: u32, y: u32) -> u8 {
    let n = d.desc.samples;
    let mut m = 0u8;
    for k in 0..n {
        let off = sample_offset(n, k);
        if !s.covers_at(x, y, off) {
            continue;
        }
        let z = Setup::lerp(s.bary_at(x, y, off), s.z_ndc);
        if (0.0..=1.0).contains(&z) {
            m |= 1 << k;
        }
    }
    m
}

fn quads(d: &Draw, s: &Setup, idx: usize, per_sample: bool, out: &mut Vec<Quad>) {
    let (sx0, sy0, sx1, sy1) = s.scissor;
    for qy in s.y0 / 2..=s.y1 / 2 {
        for qx in s.x0 / 2..=s.x1 / 2 {
            let mut samples = [0u8; 4];
            for (i, m) in samples.iter_mut().enumerate() {
                let (x, y) = (2 * qx + (i as u32 & 1), 2 * qy + (i as u32 >> 1));
                if x < sx0 || y < sy0 || x >= sx1 || y >= sy1 {
                    continue;
                }
                *m = coverage(d, s, x, y);
            }
            let lanes = |bit: u8| (0..4).fold(0u8, |c, i| c | ((samples[i] & bit != 0) as u8) << i);
            let quad = |cover, sample| Quad {
                setup: idx,
                x: 2 * qx,
                y: 2 * qy,
                cover,
                samples,
                sample,
            };
            if per_sample {
                for k in 0..d.desc.samples {
                    let cover = lanes(1 << k);
                    if cover != 0 {
                        out.push(quad(cover, Some(k)));
                    }
                }
            } else {
                let cover = lanes(0xff);
                if cover != 0 {
                    out.push(quad(cover, None));
                }
            }
        }
    }
}

/// The alpha alpha to coverage reads for `lane`: MRT0's exported alpha, or on GFX11 with
/// an `mrtz` export MRTZ's alpha (GFX11 reads it there whenever MRTZ is exported, so
/// an MRTZ format without alpha is an error); `None` for an integer export (Vulkan applies
/// alpha to coverage to float and normalized attachment 0 only) or no MRT0 export.
fn a2c_alpha(
    p: &Pipeline,
    gen: gcnc::isa::Gen,
    mrtz: Option<[u32; 4]>,
    mrt0: Option<&crate::export::Export>,
    lane: u32,
) -> Result<Option<f32>> {
    if gen == gcnc::isa::Gen::Gfx11 {
        if let Some(c) = mrtz {
            if !matches!(p.z_format & 0xf, 3 | 9) {
                return Err(Error::new(ErrorKind::Graphics(format!(
                    "alpha to coverage on GFX11 with an mrtz export whose SPI_SHADER_Z_FORMAT \
                     ({}) has no alpha: GFX11 reads the alpha from MRTZ",
                    p.z_format & 0xf
                ))));
            }
            return Ok(Some(f32::from_bits(c[3])));
        }
    }
    let Some(e) = mrt0.filter(|e| e.en != 0) else {
        return Ok(None);
    };
    Ok(export_color(p.col_format & 0xf, e, lane as usize, gen)?
        .filter(|c| c.int != Some(true))
        .map(|c| f32::from_bits(c.bits[3])))
}

/// The samples alpha to coverage leaves of pixel (x, y) at `alpha` (DB_ALPHA_TO_MASK
/// `reg`, `samples` samples): the lowest-numbered `count` samples, where
/// count = clamp(floor(alpha · samples + o/4 + r/8), 0, samples), o being the pixel's
/// dither offset ALPHA_TO_MASK_OFFSET[(x & 1) + 2 (y & 1)] and r OFFSET_ROUND. A model
/// (docs/draw.md "Alpha to coverage"): the register's fields are Mesa's, the formula and
/// the choice of samples are not documented by AMD. With RADV's offsets (3, 1, 0, 2,
/// round) the four pixels of a quad add 7/8, 3/8, 1/8 and 5/8 of a sample: a 2×2 ordered
/// dither; an alpha of exactly k/samples covers k samples at every pixel. NaN covers
/// none.
pub fn alpha_to_mask(reg: u32, samples: u32, x: u32, y: u32, alpha: f32) -> u8 {
    if alpha.is_nan() {
        return 0;
    }
    let o = reg >> (8 + 2 * ((x & 1) + 2 * (y & 1))) & 3;
    let r = reg >> 16 & 1;
    let v = alpha as f64 * samples as f64 + o as f64 / 4.0 + r as f64 / 8.0;
    let count = v.floor().clamp(0.0, samples as f64) as u32;
    ((1u32 << count) - 1) as u8
}

/// Where a pixel evaluated once per pixel takes its centroid inputs, given its covered
/// samples `mask`: the centre when every sample (or none: a helper lane) is covered,
/// else the covered sample nearest the centre, the lowest-numbered one among equals
/// (AMD's centroid priority order; Vulkan asks for a location inside the covered area).
pub fn centroid_offset(samples: u32, mask: u8) -> [i64; 2] {
    let all = ((1u32 << samples) - 1) as u8;
    if mask == 0 || mask == all {
        return CENTRE;
    }
    let dist = |k: u32| {
        let o = sample_offset(samples, k);
        (o[0] - CENTRE[0]).pow(2) + (o[1] - CENTRE[1]).pow(2)
    };
    let k = (0..samples)
        .filter(|k| mask >> k & 1 == 1)
        .min_by_key(|&k| (dist(k), k))
        .expect("a covered sample");
    sample_offset(samples, k)
}

/// The vertex parameter SPI_PS_INPUT_CNTL value `cntl` reads: OFFSET, or OFFSET[4:0]
/// with bit 5 and FLAT_SHADE (passthrough); `None` for a DEFAULT_VAL input (bit 5 alone).
pub(super) fn param_of(cntl: u32) -> Option<u32> {
    let off = cntl & 0x3f;
    match (off & 0x20 != 0, cntl >> 10 & 1 == 1) {
        (false, _) => Some(off),
        (true, true) => Some(off & 0x1f),
        (true, false) => None,
    }
}

/// The four channels of PS input `cntl` for vertex `v` of `s`.
fn input(s: &Setup, cntl: u32, v: usize, i: usize) -> Result<[u32; 4]> {
    let Some(off) = param_of(cntl) else {
        let one = 1f32.to_bits();
        return Ok(match cntl >> 8 & 3 {
            0 => [0; 4],
            1 => [0, 0, 0, one],
            2 => [one, one, one, 0],
            _ => [one; 4],
        });
    };
    s.params[v]
        .get(off as usize)
        .copied()
        .flatten()
        .ok_or_else(|| {
            Error::new(ErrorKind::Graphics(format!(
                "pixel shader input {i} reads parameter {off}, which vertex {v} of primitive {} does not have",
                s.prim
            )))
        })
}

/// Point-sprite override of an input with PT_SPRITE_TEX (SPI_INTERP_CONTROL_0
/// PNT_SPRITE_OVRD_X/Y/Z/W per channel) at the sprite's vertices: top-left, top-right,
/// bottom-left, (S, T) = (0, 0), (1, 0), (0, 1) — T flipped with PNT_SPRITE_TOP_1.
fn sprite(ctl: u32, v: &mut [[u32; 4]; 3]) {
    let top1 = ctl >> 14 & 1 == 1;
    for (k, st) in [(0f32, 0f32), (1.0, 0.0), (0.0, 1.0)]
        .into_iter()
        .enumerate()
    {
        let t = if top1 { 1.0 - st.1 } else { st.1 };
        for c in 0..4 {
            let x = match ctl >> (2 + 3 * c) & 7 {
                0 => 0.0,
                1 => 1.0,
                2 => st.0,
                3 => t,
                _ => continue,
            };
            v[k][c] = f32::to_bits(x);
        }
    }
}

/// Writes the attribute block of `s` at `base` in `lds`.
#[allow(clippy::needless_range_loop)]
fn write_params(p: &Pipeline, s: &Setup, lds: &mut Lds, base: u32) -> Result<()> {
    for (i, &cntl) in p.ps_input_cntl.iter().enumerate() {
        let flat = cntl >> 10 & 1 == 1;
        let passthrough = flat && cntl & 0x20 != 0;
        let rotate = cntl >> 11 & 1 == 1;
        if rotate && p.ps.target.gen == gcnc::isa::Gen::Gfx9 {
            return Err(Error::new(ErrorKind::Graphics(format!(
                "SPI_PS_INPUT_CNTL_{i} sets bit 11 (ROTATE_PC_PTR), which GFX9 does not have"
            ))));
        }
        // the parameter cache's vertex order: the API's with ROTATE_PC_PTR, else a
        // rotation the hardware does not promise (here by the primitive's index)
        let order = |k: usize| if rotate { k } else { (k + s.prim) % 3 };
        let mut v = [
            input(s, cntl, 0, i)?,
            input(s, cntl, 1, i)?,
            input(s, cntl, 2, i)?,
        ];
        if passthrough {
            v = [v[order(0)], v[order(1)], v[order(2)]];
        }
        if let Shape::Point { .. } = s.shape {
            if cntl >> 17 & 1 == 1 && p.interp_control >> 1 & 1 == 1 {
                sprite(p.interp_control, &mut v);
            }
        }
        for c in 0..4 {
            let f = |k: usize| f32::from_bits(v[k][c]);
            let (p0, p10, p20) = if passthrough {
                (v[0][c], v[1][c], v[2][c])
            } else if flat {
                (v[0][c], 0, 0)
            } else {
                (v[0][c], (f(1) - f(0)).to_bits(), (f(2) - f(0)).to_bits())
            };
            for (k, val) in [p0, p10, p20].into_iter().enumerate() {
                let a = base + i as u32 * ATTR_BYTES + (4 * k as u32 + c as u32) * 4;
                if !lds.write_u32(a, val) {
                    return Err(Error::setup("pixel attribute data beyond the LDS"));
                }
            }
        }
    }
    Ok(())
}

#[allow(clippy::too_many_arguments, clippy::needless_range_loop)]
pub fn run(
    p: &Pipeline,
    d: &Draw,
    entries: &[Option<u32>],
    opt: &Options,
    m: &mut DrawMemory,
    setups: &[Setup],
    fb: &mut Framebuffer,
    stats: &mut DrawStats,
) -> Result<()> {
    let ena = p.ps_input_ena;
    let addr = p.ps_input_addr | ena;
    if ena & (1 << 3 | 1 << 7) != 0 {
        return Err(Error::unsupported(
            "PERSP_PULL_MODEL / LINE_STIPPLE_TEX pixel inputs",
        ));
    }
    let dual = d
        .desc
        .color_attachments
        .first()
        .is_some_and(|a| a.dual_source());
    for (n, a) in d.desc.color_attachments.iter().enumerate() {
        if p.col_format >> (4 * n) & 0xf == 0 && a.channels() != 0 {
            return Err(Error::new(ErrorKind::Graphics(format!(
                "colour attachment {n} has export format ZERO in SPI_SHADER_COL_FORMAT"
            ))));
        }
    }
    if p.db_shader_control & MASK_EXPORT_ENABLE != 0 && p.z_format & 0xf <= 3 {
        return Err(Error::new(ErrorKind::Graphics(format!(
            "DB_SHADER_CONTROL.MASK_EXPORT_ENABLE with SPI_SHADER_Z_FORMAT {}, which has no \
             sample-mask (blue) channel",
            p.z_format & 0xf
        ))));
    }
    // the blender writes the channels CB_TARGET_MASK enables (the description's write
    // masks are the lavapipe side's: the pipeline's register is what counts here); one
    // the attachment's format has that the export does not carry is undefined
    for (n, (a, _)) in fb.color.iter_mut().enumerate() {
        let target = p.cb_target_mask >> (4 * n) & 0xf;
        let shader = p.cb_shader_mask >> (4 * n) & 0xf;
        let missing = a.format.used_channels(false, target) & !shader;
        if missing != 0 {
            return Err(Error::new(ErrorKind::Graphics(format!(
                "colour attachment {n} ({}): CB_TARGET_MASK enables channels {missing:#x} \
                 that CB_SHADER_MASK ({shader:#x}) does not export",
                a.format.name()
            ))));
        }
        a.write_mask = target;
    }
    let lanes = p.ps.target.wave.lanes() as usize;
    let param_bytes = (p.ps_input_cntl.len() as u32).max(1) * ATTR_BYTES;
    let n = d.desc.samples;
    // per sample only as the pipeline asks (PA_SC_MODE_CNTL_1.PS_ITER_SAMPLE): the
    // description's min_sample_shading reaches the hardware through the compiled state
    let per_sample = n > 1 && p.ps_iter_sample;
    if n > 1 && !per_sample && ena & (1 << PERSP_SAMPLE | 1 << LINEAR_SAMPLE) != 0 {
        return Err(Error::new(ErrorKind::Graphics(format!(
            "PERSP/LINEAR_SAMPLE pixel inputs on a {n}-sample draw without \
             PA_SC_MODE_CNTL_1.PS_ITER_SAMPLE (the shader runs once per pixel)"
        ))));
    }
    let mut all = Vec::new();
    for (i, s) in setups.iter().enumerate() {
        quads(d, s, i, per_sample, &mut all);
    }
    stats.quads += all.len() as u64;
    for wq in all.chunks(lanes / 4) {
        // primitives of the wave and the new-primitive mask
        let mut prims: Vec<usize> = Vec::new();
        let mut mask = 0u32;
        for (k, q) in wq.iter().enumerate() {
            if prims.last() != Some(&q.setup) {
                if k > 0 {
                    mask |= 1 << k;
                }
                prims.push(q.setup);
            }
        }
        let mut lds = Lds::new((prims.len() as u32 * param_bytes) as usize);
        for (k, &si) in prims.iter().enumerate() {
            write_params(p, &setups[si], &mut lds, k as u32 * param_bytes)?;
        }
        let mut w = launch::new_wave(&p.ps, d, entries, 0, opt.budget, opt.checks)?;
        w.id = ([0; 3], stats.pixel_waves as u32);
        w.param_bytes = param_bytes;
        w.regs.set_s(p.ps.user_data.len() as u16, mask)?;
        let mut exec = 0u64;
        let mut covered = 0u64;
        for (k, q) in wq.iter().enumerate() {
            covered |= (q.cover as u64) << (4 * k);
            let s = &setups[q.setup];
            for i in 0..4u32 {
                let lane = 4 * k as u32 + i;
                let (x, y) = (q.x + (i & 1), q.y + (i >> 1));
                exec |= 1 << lane;
                let b = s.bary(x, y);
                // the sample and centroid locations of this invocation
                let at_sample = q.sample.map_or(CENTRE, |k| sample_offset(n, k));
                let at_centroid = match q.sample {
                    Some(_) => at_sample,
                    None => centroid_offset(n, q.samples[i as usize]),
                };
                let ij = |off: [i64; 2], persp: bool| {
                    let b = s.bary_at(x, y, off);
                    let b = if persp { s.persp(b) } else { b };
                    vec![(b[1] as f32).to_bits(), (b[2] as f32).to_bits()]
                };
                let mut v = 0u16;
                for bit in 0..16u32 {
                    if addr >> bit & 1 == 0 {
                        continue;
                    }
                    let vals: Vec<u32> = match bit {
                        PERSP_SAMPLE => ij(at_sample, true),
                        PERSP_CENTER => ij(CENTRE, true),
                        PERSP_CENTROID => ij(at_centroid, true),
                        LINEAR_SAMPLE => ij(at_sample, false),
                        LINEAR_CENTER => ij(CENTRE, false),
                        LINEAR_CENTROID => ij(at_centroid, false),
                        8 => vec![(x as f32 + 0.5).to_bits()],
                        9 => vec![(y as f32 + 0.5).to_bits()],
                        10 => vec![(Setup::lerp(b, s.z_f) as f32).to_bits()],
                        11 => vec![(1.0 / Setup::lerp(b, s.inv_w) as f32).to_bits()],
                        12 => vec![if s.front { 1f32.to_bits() } else { 0 }],
                        // SAMPLE_ID in bits 11:8
                        13 => vec![q.sample.unwrap_or(0) << 8],
                        14 => vec![q.samples[i as usize] as u32],
                        15 => vec![x | y << 16],
                        _ => vec![0; INPUT_VGPRS[bit as usize] as usize],
                    };
                    if ena >> bit & 1 == 1 {
                        for (j, val) in vals.into_iter().enumerate() {
                            w.regs.set_v(v + j as u16, lane, val)?;
                        }
                    }
                    v += INPUT_VGPRS[bit as usize];
                }
            }
        }
        // the hardware launches with EXEC = the covered lanes; helper lanes have their
        // inputs and join only when the shader widens EXEC (s_wqm)
        w.regs.set_exec(covered);
        w.launched = covered;
        w.helpers = exec & !covered;
        let mut ex = Exports::new(false);
        launch::run_wave(
            &mut m.ps_prog,
            &mut m.mem,
            &mut lds,
            &mut w,
            &mut ex,
            opt.checks,
            &mut m.instructions,
            opt.draw_budget,
        )?;
        stats.pixel_waves += 1;
        let Some(done) = ex.list.iter().find(|e| {
            e.done && !matches!(e.target, Target::Pos(_) | Target::Param(_) | Target::Prim)
        }) else {
            return Err(launch::rule(
                &w,
                "the pixel wave ended without a done export".into(),
            ));
        };
        let valid = done.exec;
        for e in &ex.list {
            match e.target {
                // GFX11 has no null target: an export with no channels stands for it
                Target::Mrt(_) if e.en == 0 => {}
                // GFX9/GFX10.3 dual-source blending: the second source
                Target::Mrt(1) if dual && m.gen != gcnc::isa::Gen::Gfx11 => {}
                Target::DualSrc(_) if dual => {}
                Target::Mrt(n) if n as usize >= d.desc.color_attachments.len() => {
                    return Err(launch::rule(
                        &w,
                        format!("export to mrt{n}, which has no colour attachment"),
                    ))
                }
                Target::Mrtz if p.z_format & 0xf == 0 => {
                    return Err(launch::rule(
                        &w,
                        "export to mrtz while SPI_SHADER_Z_FORMAT is ZERO".into(),
                    ))
                }
                Target::Mrt(_) | Target::Mrtz | Target::Null => {}
                t => {
                    return Err(launch::rule(
                        &w,
                        format!("export to {t:?} from a pixel shader"),
                    ))
                }
            }
        }
        for (k, q) in wq.iter().enumerate() {
            let s = &setups[q.setup];
            for i in 0..4u32 {
                let lane = 4 * k as u32 + i;
                if q.cover >> i & 1 == 0 || valid >> lane & 1 == 0 {
                    continue;
                }
                let (x, y) = (q.x + (i & 1), q.y + (i >> 1));
                let last = |t: Target| {
                    ex.list
                        .iter()
                        .rev()
                        .find(|e| e.target == t && e.exec >> lane & 1 == 1)
                };
                // MRTZ's channels (depth, stencil, sample mask, alpha) by SPI_SHADER_Z_FORMAT
                let mrtz = match last(Target::Mrtz).filter(|e| e.en != 0) {
                    Some(e) => export_color(p.z_format & 0xf, e, lane as usize, m.gen)
                        .map_err(|e| w.locate(e, w.pc, None))?
                        .map(|c| c.bits),
                    None => None,
                };
                let depth = mrtz.filter(|_| p.db_shader_control & Z_EXPORT_ENABLE != 0);
                // gl_SampleMask: ANDed with the coverage (a per-sample invocation keeps
                // its own sample's bit)
                let shader_mask = mrtz
                    .filter(|_| p.db_shader_control & MASK_EXPORT_ENABLE != 0)
                    .map_or(0xff, |c| c[2] as u8);
                let alpha_mask = if p.alpha_to_mask & 1 == 1 {
                    let alpha = a2c_alpha(p, m.gen, mrtz, last(Target::Mrt(0)), lane)
                        .map_err(|e| w.locate(e, w.pc, None))?;
                    alpha.map_or(0xff, |a| alpha_to_mask(p.alpha_to_mask, n, x, y, a))
                } else {
                    0xff
                };
                // the samples this invocation writes, each depth-tested at its location
                let writes = shader_mask
                    & alpha_mask
                    & match q.sample {
                        Some(k) => 1u8 << k,
                        None => q.samples[i as usize],
                    };
                for k in (0..n).filter(|k| writes >> k & 1 == 1) {
                    let z = match depth {
                        Some(c) => f32::from_bits(c[0]),
                        None => Setup::lerp(s.bary_at(x, y, sample_offset(n, k)), s.z_f) as f32,
                    };
                    let row = fb.row(y, k, s.layer);
                    if !fb.depth(x, row, z) {
                        continue;
                    }
                    for a in 0..d.desc.color_attachments.len() {
                        let fmt = |att: usize| p.col_format >> (4 * att) & 0xf;
                        let color = |t: Target, att: usize, at: u32| {
                            let Some(e) = last(t).filter(|e| e.en != 0) else {
                                return Ok(None);
                            };
                            export_color(fmt(att), e, at as usize, m.gen)
                        };
                        let (c, src1) = if dual && m.gen == gcnc::isa::Gen::Gfx11 {
                            // the pixel's lane pair in the target of its parity
                            let t = Target::DualSrc((lane & 1) as u8);
                            (color(t, 0, lane & !1), color(t, 1, lane | 1))
                        } else if dual {
                            (
                                color(Target::Mrt(0), 0, lane),
                                color(Target::Mrt(1), 1, lane),
                            )
                        } else {
                            (color(Target::Mrt(a as u8), a, lane), Ok(None))
                        };
                        let c = c.map_err(|e| w.locate(e, w.pc, None))?;
                        let src1 = src1.map_err(|e| w.locate(e, w.pc, None))?;
                        if let Some(c) = c {
                            fb.write(a, x, row, c, src1)
                                .map_err(|e| w.locate(e, w.pc, None))?;
                        }
                    }
                }
            }
        }
    }
    stats.instructions = m.instructions;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn alpha_to_coverage_dithers_between_sample_counts_and_is_exact_at_k_over_n() {
        let radv = gcnc::binary::graphics::ALPHA_TO_MASK_DITHERED;
        // k/4 covers the lowest k samples at each pixel of a quad
        for k in 0..=4u32 {
            for (x, y) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
                let m = alpha_to_mask(radv, 4, x, y, k as f32 / 4.0);
                assert_eq!(m, ((1u32 << k) - 1) as u8, "alpha {k}/4 at ({x}, {y})");
            }
        }
        // halfway between 1/4 and 2/4: the quad's pixels add 7/8, 3/8, 1/8, 5/8 of a
        // sample, so two of them round up
        let counts: Vec<u32> = [(0, 0), (1, 0), (0, 1), (1, 1)]
            .map(|(x, y)| alpha_to_mask(radv, 4, x, y, 0.375).count_ones())
            .to_vec();
        assert_eq!(counts, [2, 1, 1, 2]);
        // out of range and NaN
        assert_eq!(alpha_to_mask(radv, 8, 0, 0, 2.0), 0xff);
        assert_eq!(alpha_to_mask(radv, 4, 1, 1, -1.0), 0);
        assert_eq!(alpha_to_mask(radv, 4, 0, 0, f32::NAN), 0);
    }

    #[test]
    fn centroid_is_the_centre_when_fully_covered_else_the_nearest_covered_sample() {
        assert_eq!(centroid_offset(4, 0b1111), CENTRE);
        // a helper lane (nothing covered) takes the centre too
        assert_eq!(centroid_offset(4, 0), CENTRE);
        assert_eq!(centroid_offset(4, 0b0100), sample_offset(4, 2));
        // 4x locations are all as far from the centre: the lowest covered one
        assert_eq!(centroid_offset(4, 0b1010), sample_offset(4, 1));
        // 8x: sample 0 (0.5625, 0.3125) is nearer than sample 7 (0.9375, 0.0625)
        assert_eq!(centroid_offset(8, 0b1000_0001), sample_offset(8, 0));
        assert_eq!(centroid_offset(8, 0b1000_0000), sample_offset(8, 7));
        assert_eq!(centroid_offset(1, 1), CENTRE);
    }
}
