//! Vertex waves and primitive assembly: every primitive of the draw with its three
//! vertices' positions and parameters, in API order.
//!
//! The vertex stream is instance-major: for each instance, every distinct vertex once in
//! order of first use, with VertexID = 0..vertex_count, or the index buffer's value for
//! an indexed draw (the shader adds BaseVertex: first_vertex / vertex_offset), and
//! InstanceID = the zero-based instance (the shader adds BaseInstance). Primitives per
//! instance: triangle lists take vertices (3i, 3i+1, 3i+2); strips take (i, i+1, i+2)
//! for even i and (i, i+2, i+1) for odd i (Vulkan's order; the first is the provoking
//! vertex), starting again after a restart index; point lists one vertex each, line
//! lists (2i, 2i+1), line strips (i, i+1). A `Prim` always holds three vertices: a
//! line repeats its second, a point its only one (also in the NGG primitive lanes'
//! input indices), and the `exp prim` indices beyond the primitive's are not read.
//! `pos1.x` of a vertex lane is its point size (gl_PointSize); `pos1.y` its shading rate
//! when PA_CL_VS_OUT_CNTL.USE_VTX_VRS_RATE is set (GFX10.3+, encoding checked strictly,
//! [`shading_rate`]). The rate is recorded and has no effect: a draw description has no
//! fragment-shading-rate state, so the pipeline's combiners keep the pipeline's 1x1 rate
//! (Vulkan's default, KEEP), as lavapipe and RADV draw it. The clip and cull distances
//! are the position exports after `pos0` and the misc vector that PA_CL_VS_OUT_CNTL's
//! VS_OUT_CCDIST0/1_VEC_ENA name, slot n a distance when CLIP_DIST_ENA_n or
//! CULL_DIST_ENA_n is set (an enabled slot a vertex does not export is an error);
//! `raster` culls and clips with them.
//!
//! Primitive ids: each primitive's index among its instance's primitives (from 0 per
//! instance, counting on across primitive restarts), delivered only as the registers ask.
//!
//! GFX9 / GFX10.3 hardware VS: waves of up to one wave of stream vertices; v0 = VertexID,
//! v1 = InstanceID (GFX9; 0 on GFX10.3), v2 = 0, v3 = InstanceID; user SGPRs from s0.
//! With VGT_PRIMITIVEID_EN, VGT_GS_MODE = GS_SCENARIO_A and VGPR_COMP_CNT ≥ 2, v2 is the
//! primitive id and the stream has no reuse: every primitive's vertices are shaded for
//! it alone, so its provoking vertex carries its id (Mesa has no fact on how the VGT
//! shares vertices then; RADV relies on the provoking vertex's v2, and this is the one
//! model that gives it).
//! Each vertex must be in the EXEC of a `pos0` export with all four channels, and the
//! wave must make a `done` position export. Parameters come from `exp paramN`.
//!
//! GFX10.3 / GFX11 NGG: primitives are grouped in API order into waves of at most one
//! wave of distinct vertices and of primitives (vertices in order of first use). System
//! SGPRs: s2 = `nverts << 12 | nprims << 22` (GS_TG_INFO), s3 = `nverts | nprims << 8`
//! (merged wave info); s0, s1, s4, s6, s7 are not written (s5 too before GFX11); user SGPRs from s8. Primitive
//! lanes (GFX10.3 and GFX11 alike): in passthrough mode (VGT_SHADER_STAGES_EN.
//! PRIMGEN_PASSTHRU_EN) v0 = `i0 | i1 << 10 | i2 << 20`, the `exp prim` value; otherwise
//! v0 = `i0 | i1 << 16`, v1 = `i2`; v2 = the primitive id when VGT_PRIMITIVEID_EN and
//! GS_VGPR_COMP_CNT ≥ 2 (else unwritten), v3 = 0; with NGG_DISABLE_PROVOK_REUSE each
//! primitive's provoking vertex is a subgroup vertex of its own (a copy when the stream
//! vertex is already in the subgroup); the wave's LDS is RSRC2_GS.LDS_SIZE. Vertex lanes: v5 = VertexID, v6 = 0,
//! v7 = 0, v8 = InstanceID. EXEC = the first max(nverts, nprims) lanes. The wave must
//! send `GS_ALLOC_REQ` with exactly (nverts, nprims) in M0 before its position and
//! primitive exports, export `pos0` for every vertex lane and `prim` for every primitive
//! lane (indices in bits 8:0 / 18:10 / 28:20, bit 31 = null primitive). Parameters:
//! GFX10.3 `exp paramN`; GFX11 the attribute ring (`launch`): s5 = the subgroup's place
//! (`AttrRing::place`, bits 14:0 in 512-byte units), and parameter `a` of vertex lane `l`
//! is read where a swizzled store with vindex `l` and offset `16·a` put it, STRIDE
//! being 16 × (SPI_VS_OUT_CONFIG.VS_EXPORT_COUNT + 1).

use super::launch::{self, DrawMemory};
use super::shaders::Pipeline;
use super::{desc::Topology, Draw, DrawStats, Options};
use crate::error::{Error, Result};
use crate::export::{Export, Exports, Target};
use crate::memory::Lds;
use crate::wave::Wave;
use gcnc::isa::Gen;

/// One shaded vertex.
#[derive(Clone, Debug, PartialEq)]
pub struct VertexOut {
    /// Clip-space position (`pos0`).
    pub pos: [f32; 4],
    /// Parameter n's four channels (raw bits), if exported / written.
    pub params: Vec<Option<[u32; 4]>>,
    /// `pos1.x` (gl_PointSize) when the wave exported it.
    pub point_size: Option<f32>,
    /// The vertex's shading rate (`pos1.y`, read when PA_CL_VS_OUT_CNTL.USE_VTX_VRS_RATE
    /// is set) as a fragment size in pixels (width, height).
    pub shading_rate: Option<(u32, u32)>,
    /// gl_Layer (`pos1.z` bits 15:0 with PA_CL_VS_OUT_CNTL.USE_VTX_RENDER_TARGET_INDX,
    /// else 0).
    pub layer: u32,
    /// gl_ViewportIndex (`pos1.z` bits 31:16 with PA_CL_VS_OUT_CNTL.USE_VTX_VIEWPORT_INDX,
    /// else 0).
    pub viewport: u32,
    /// Distance slot n (PA_CL_VS_OUT_CNTL's CLIP_DIST_ENA_n / CULL_DIST_ENA_n): the
    /// value the vertex exported for each enabled slot, 0.0 for the others.
    pub distances: [f32; 8],
}

/// An assembled primitive: its vertices in API order (vertex 0 provokes); a line
/// repeats its second vertex, a point its only one.
pub type Prim = [VertexOut; 3];

/// (VertexID, InstanceID) of every stream vertex (each distinct vertex of an instance
/// once, in order of first use), the primitives as stream indices, and each primitive's
/// id (its index among its instance's primitives: from 0 per instance, counting on
/// across primitive restarts).
type Assembled = (Vec<(u32, u32)>, Vec<[usize; 3]>, Vec<u32>);

fn assemble(d: &Draw) -> Assembled {
    let dc = d.desc.draw;
    let ids = d.vertex_indices();
    let mut stream = Vec::new();
    let mut prims = Vec::new();
    let mut prim_ids = Vec::new();
    for inst in 0..dc.instance_count {
        let first = prims.len();
        let mut slot: std::collections::HashMap<u32, usize> = Default::default();
        // strips restart at a None; lists never hold one (checked)
        for run in ids.split(|v| v.is_none()) {
            let run: Vec<usize> = run
                .iter()
                .flatten()
                .map(|&v| {
                    *slot.entry(v).or_insert_with(|| {
                        stream.push((v, inst));
                        stream.len() - 1
                    })
                })
                .collect();
            let n = run.len();
            match d.desc.topology {
                Topology::TriangleList => {
                    for i in 0..n / 3 {
                        prims.push([run[3 * i], run[3 * i + 1], run[3 * i + 2]]);
                    }
                }
                Topology::TriangleStrip => {
                    for i in 0..n.saturating_sub(2) {
                        let (b, c) = if i % 2 == 0 {
                            (i + 1, i + 2)
                        } else {
                            (i + 2, i + 1)
                        };
                        prims.push([run[i], run[b], run[c]]);
                    }
                }
                Topology::PointList => prims.extend(run.iter().map(|&v| [v; 3])),
                Topology::LineList => {
                    for i in 0..n / 2 {
                        prims.push([run[2 * i], run[2 * i + 1], run[2 * i + 1]]);
                    }
                }
                Topology::LineStrip => {
                    for i in 0..n.saturating_sub(1) {
                        prims.push([run[i], run[i + 1], run[i + 1]]);
                    }
                }
            }
        }
        prim_ids.extend(0..(prims.len() - first) as u32);
    }
    (stream, prims, prim_ids)
}

fn lane_export(exports: &Exports, t: Target, lane: u32) -> Option<&Export> {
    exports
        .list
        .iter()
        .rev()
        .find(|e| e.target == t && e.exec >> lane & 1 == 1)
}

/// The fragment size (width, height) a vertex's `pos1.y` asks for, checked strictly
/// (docs/abi.md "Graphics", from RADV's encoding): GFX10.3 X rate in bits 3:2, Y rate in
/// bits 5:4, each 0 (1 pixel) or 1 (2 pixels); GFX11 the VRS_SHADING_RATE enum in bits
/// 5:2, 0 (1x1), 1 (1x2), 4 (2x1) or 5 (2x2). Every other bit is reserved: the hardware
/// reads bits 1:0 as the edge flag and none of the others.
fn shading_rate(gen: Gen, bits: u32) -> std::result::Result<(u32, u32), String> {
    if bits & !0x3c != 0 {
        return Err(format!(
            "pos1.y = {bits:#x}: the shading rate has bits outside 5:2 set"
        ));
    }
    let (x, y) = match gen {
        Gen::Gfx11 => (bits >> 4 & 3, bits >> 2 & 3),
        _ => (bits >> 2 & 3, bits >> 4 & 3),
    };
    if x > 1 || y > 1 {
        return Err(format!(
            "pos1.y = {bits:#x}: {gen} shading-rate field {} is not a 1- or 2-pixel rate",
            if gen == Gen::Gfx11 {
                "(VRS_SHADING_RATE enum)"
            } else {
                "X or Y"
            }
        ));
    }
    Ok((1 << x, 1 << y))
}

/// Position and exported parameters of `lane`.
/// The clip and cull distances of vertex `lane`: slot n is channel n % 4 of distance
/// vector n / 4; the vectors are the position exports after `pos0` and the misc vector
/// (VS_OUT_MISC_VEC_ENA), CCDIST0 before CCDIST1, each present only with its
/// VS_OUT_CCDISTn_VEC_ENA. An enabled slot the vertex did not export is an error.
fn distances(pl: &Pipeline, w: &Wave, ex: &Exports, lane: u32) -> Result<[f32; 8]> {
    let cntl = pl.vs_out_cntl;
    let enabled = (cntl | cntl >> 8) & 0xff;
    let mut out = [0f32; 8];
    let mut pos = 1 + (cntl >> 21 & 1) as u8;
    for vec in 0..2u32 {
        if cntl >> (22 + vec) & 1 == 0 {
            if enabled >> (4 * vec) & 0xf != 0 {
                return Err(launch::rule(
                    w,
                    format!(
                        "PA_CL_VS_OUT_CNTL enables distances {}..{} without                          VS_OUT_CCDIST{vec}_VEC_ENA",
                        4 * vec,
                        4 * vec + 3
                    ),
                ));
            }
            continue;
        }
        let e = lane_export(ex, Target::Pos(pos), lane);
        for c in 0..4 {
            let slot = 4 * vec + c;
            if enabled >> slot & 1 == 0 {
                continue;
            }
            match e.filter(|e| e.en >> c & 1 == 1) {
                Some(e) => out[slot as usize] = f32::from_bits(e.data[lane as usize][c as usize]),
                None => {
                    return Err(launch::rule(
                        w,
                        format!(
                            "distance {slot} is enabled but vertex lane {lane} exports no \
                             pos{pos}.{}",
                            ["x", "y", "z", "w"][c as usize]
                        ),
                    ))
                }
            }
        }
        pos += 1;
    }
    Ok(out)
}

fn vertex_out(pl: &Pipeline, w: &Wave, ex: &Exports, lane: u32) -> Result<VertexOut> {
    let Some(p) = lane_export(ex, Target::Pos(0), lane) else {
        return Err(launch::rule(
            w,
            format!("vertex lane {lane} has no pos0 export"),
        ));
    };
    if p.en != 0xf {
        return Err(launch::rule(
            w,
            format!(
                "pos0 export at {:#x} does not write all four channels",
                p.pc
            ),
        ));
    }
    let d = p.data[lane as usize];
    let mut params = Vec::new();
    for e in &ex.list {
        if let Target::Param(n) = e.target {
            if e.exec >> lane & 1 == 1 {
                let n = n as usize;
                if params.len() <= n {
                    params.resize(n + 1, None);
                }
                let mut v = e.data[lane as usize];
                for (k, c) in v.iter_mut().enumerate() {
                    if e.en >> k & 1 == 0 {
                        *c = 0;
                    }
                }
                params[n] = Some(v);
            }
        }
    }
    let point_size = lane_export(ex, Target::Pos(1), lane)
        .filter(|e| e.en & 1 == 1)
        .map(|e| f32::from_bits(e.data[lane as usize][0]));
    let shading_rate = if pl.vtx_vrs_rate {
        let e = lane_export(ex, Target::Pos(1), lane)
            .filter(|e| e.en & 2 == 2)
            .ok_or_else(|| {
                launch::rule(
                    w,
                    format!(
                        "PA_CL_VS_OUT_CNTL.USE_VTX_VRS_RATE, but vertex lane {lane} exports \
                         no pos1.y (the shading rate)"
                    ),
                )
            })?;
        let rate = shading_rate(pl.vs.target.gen, e.data[lane as usize][1])
            .map_err(|m| launch::rule(w, format!("vertex lane {lane}: {m}")))?;
        Some(rate)
    } else {
        None
    };
    // gl_Layer | gl_ViewportIndex << 16 in pos1.z (GFX9+: Mesa's ac_nir_export_position)
    let (layer, viewport) = if pl.vtx_layer || pl.vtx_viewport {
        let e = lane_export(ex, Target::Pos(1), lane)
            .filter(|e| e.en & 4 == 4)
            .ok_or_else(|| {
                launch::rule(
                    w,
                    format!(
                        "PA_CL_VS_OUT_CNTL.USE_VTX_RENDER_TARGET_INDX or USE_VTX_VIEWPORT_INDX,                          but vertex lane {lane} exports no pos1.z (the layer and viewport)"
                    ),
                )
            })?;
        let z = e.data[lane as usize][2];
        (
            if pl.vtx_layer { z & 0xffff } else { 0 },
            if pl.vtx_viewport { z >> 16 } else { 0 },
        )
    } else {
        (0, 0)
    };
    Ok(VertexOut {
        pos: d.map(f32::from_bits),
        params,
        point_size,
        shading_rate,
        layer,
        viewport,
        distances: distances(pl, w, ex, lane)?,
    })
}

fn check_pos_done(w: &Wave, ex: &Exports) -> Result<()> {
    if !ex.pos_done() {
        return Err(launch::rule(
            w,
            "the vertex wave ended without a done position export".into(),
        ));
    }
    Ok(())
}

/// Runs the vertex stage; returns the assembled primitives in API order.
pub fn run(
    p: &Pipeline,
    d: &Draw,
    entries: &[Option<u32>],
    opt: &Options,
    m: &mut DrawMemory,
    stats: &mut DrawStats,
) -> Result<Vec<Prim>> {
    let (stream, prims, prim_ids) = assemble(d);
    if p.ngg {
        return run_ngg(p, d, entries, opt, m, stats, &stream, &prims, &prim_ids);
    }
    if m.gen == Gen::Gfx11 {
        return Err(Error::setup("a hardware VS on GFX11, which has none"));
    }
    // VGT_PRIMITIVEID_EN with GS_SCENARIO_A: v2 = the primitive id, every primitive's
    // vertices shaded for it alone (no reuse), so its provoking vertex carries its id
    let with_ids = p.primitive_id_en & 1 == 1 && p.gs_mode == 1 && p.vs.comp_cnt >= 2;
    let (stream, prims): (Vec<(u32, u32, u32)>, Vec<[usize; 3]>) = if with_ids {
        let mut s = Vec::with_capacity(3 * prims.len());
        let mut q = Vec::with_capacity(prims.len());
        for (t, &id) in prims.iter().zip(&prim_ids) {
            let base = s.len();
            s.extend(t.map(|v| (stream[v].0, stream[v].1, id)));
            q.push([base, base + 1, base + 2]);
        }
        (s, q)
    } else {
        (stream.iter().map(|&(v, i)| (v, i, 0)).collect(), prims)
    };
    let lanes = p.vs.target.wave.lanes() as usize;
    let mut outs = Vec::with_capacity(stream.len());
    for chunk in stream.chunks(lanes) {
        let mut w = launch::new_wave(&p.vs, d, entries, 0, opt.budget, opt.checks)?;
        w.id = ([0; 3], stats.vertex_waves as u32);
        let mut exec = 0u64;
        for (l, &(vid, iid, prim_id)) in chunk.iter().enumerate() {
            let l = l as u32;
            // VGPR_COMP_CNT: GFX9 InstanceID in v1 (and v3), the primitive id in v2;
            // GFX10.3 user VGPRs in v1, v2
            let v1 = if m.gen == Gen::Gfx9 { iid } else { 0 };
            for (r, v) in [(0, vid), (1, v1), (2, prim_id), (3, iid)] {
                w.regs.set_v(r, l, v)?;
            }
            exec |= 1 << l;
        }
        w.regs.set_exec(exec);
        w.launched = exec;
        let mut ex = Exports::new(false);
        let mut lds = Lds::new(0);
        launch::run_wave(
            &mut m.vs_prog,
            &mut m.mem,
            &mut lds,
            &mut w,
            &mut ex,
            opt.checks,
            &mut m.instructions,
            opt.draw_budget,
        )?;
        stats.vertex_waves += 1;
        check_pos_done(&w, &ex)?;
        for l in 0..chunk.len() as u32 {
            outs.push(vertex_out(p, &w, &ex, l)?);
        }
    }
    Ok(prims.iter().map(|t| t.map(|i| outs[i].clone())).collect())
}

#[allow(clippy::too_many_arguments)]
fn run_ngg(
    p: &Pipeline,
    d: &Draw,
    entries: &[Option<u32>],
    opt: &Options,
    m: &mut DrawMemory,
    stats: &mut DrawStats,
    stream: &[(u32, u32)],
    prims: &[[usize; 3]],
    prim_ids: &[u32],
) -> Result<Vec<Prim>> {
    // VGT_PRIMITIVEID_EN: the primitive lanes' v2 (GS_VGPR_COMP_CNT ≥ 2) is the id;
    // NGG_DISABLE_PROVOK_REUSE: a primitive's provoking vertex is a subgroup vertex of
    // its own, never one already in the subgroup
    let with_ids = p.primitive_id_en & 1 == 1 && p.vs.comp_cnt >= 2;
    let fresh_provoking = p.primitive_id_en >> 2 & 1 == 1;
    let lanes = p.vs.target.wave.lanes() as usize;
    let gen = m.gen;
    let needed = p
        .ps_input_cntl
        .iter()
        .filter_map(|&c| super::pixel::param_of(c))
        .map(|c| c as usize + 1)
        .max()
        .unwrap_or(0);
    // GFX11: the ring's V# as the hardware reads it back, with the record the pipeline's
    // SPI_VS_OUT_CONFIG gives (max(1, parameters) + primitive parameters, 16 bytes each)
    let ring_desc = if gen == Gen::Gfx11 {
        let params = (p.vs_out_config >> 1 & 0x1f) + 1;
        if p.vs_out_config >> 8 & 0x1f != 0 {
            return Err(Error::unsupported(
                "SPI_VS_OUT_CONFIG.PRIM_EXPORT_COUNT (per-primitive attributes)",
            ));
        }
        if needed > params as usize {
            return Err(Error::setup(format!(
                "the pixel shader reads parameter {}, beyond SPI_VS_OUT_CONFIG's {params}",
                needed - 1
            )));
        }
        let mut d = launch::attr_ring_desc()?;
        d[1] |= 16 * params << 16;
        Some(crate::memory::BufferDesc::decode(gen, d))
    } else {
        None
    };
    let ring_indices = match ring_desc.map(|d| d.swizzle) {
        Some(crate::memory::Swizzle::On { index_stride, .. }) => index_stride as u64,
        _ => 1,
    };
    let mut out = Vec::with_capacity(prims.len());
    let mut next = 0;
    while next < prims.len() {
        // group primitives: at most `lanes` distinct vertices and primitives
        let mut verts: Vec<usize> = Vec::new();
        let mut local: Vec<[u32; 3]> = Vec::new();
        while next < prims.len() && local.len() < lanes {
            let mut fresh: Vec<usize> = Vec::new();
            let pv = prims[next][0];
            if fresh_provoking {
                fresh.push(pv);
            }
            for v in prims[next] {
                if !verts.contains(&v) && !fresh.contains(&v) {
                    fresh.push(v);
                }
            }
            if verts.len() + fresh.len() > lanes {
                break;
            }
            let at = verts.len();
            verts.extend(fresh);
            let mut t = prims[next].map(|v| verts.iter().position(|&x| x == v).unwrap_or(0) as u32);
            if fresh_provoking {
                t[0] = at as u32;
            }
            local.push(t);
            next += 1;
        }
        let first_prim = next - local.len();
        let (nv, np) = (verts.len() as u32, local.len() as u32);
        let mut w = launch::new_wave(&p.vs, d, entries, 8, opt.budget, opt.checks)?;
        w.id = ([0; 3], stats.vertex_waves as u32);
        w.regs.set_s(2, nv << 12 | np << 22)?;
        w.regs.set_s(3, nv | np << 8)?;
        for (l, t) in local.iter().enumerate() {
            let l = l as u32;
            if p.ngg_passthrough {
                w.regs.set_v(0, l, t[0] | t[1] << 10 | t[2] << 20)?;
            } else {
                w.regs.set_v(0, l, t[0] | t[1] << 16)?;
                w.regs.set_v(1, l, t[2])?;
            }
            if with_ids {
                w.regs.set_v(2, l, prim_ids[first_prim + l as usize])?;
            }
            w.regs.set_v(3, l, 0)?;
        }
        for (l, &v) in verts.iter().enumerate() {
            let (vid, iid) = stream[v];
            for (r, x) in [(5, vid), (6, 0), (7, 0), (8, iid)] {
                w.regs.set_v(r, l as u32, x)?;
            }
        }
        let exec = if nv.max(np) >= 64 {
            u64::MAX
        } else {
            (1u64 << nv.max(np)) - 1
        };
        w.regs.set_exec(exec);
        w.launched = exec;
        // GFX11: the subgroup's place in the attribute ring, in s5
        let ring = match &ring_desc {
            Some(desc) => {
                let blocks = (nv as u64).div_ceil(ring_indices) * ring_indices;
                let (at, s5) = m.attr_ring.place(blocks * desc.stride as u64)?;
                w.regs.set_s(5, s5)?;
                Some((desc, at))
            }
            None => None,
        };
        let mut ex = Exports::new(true);
        let mut lds = Lds::new(p.vs.lds_bytes);
        launch::run_wave(
            &mut m.vs_prog,
            &mut m.mem,
            &mut lds,
            &mut w,
            &mut ex,
            opt.checks,
            &mut m.instructions,
            opt.draw_budget,
        )?;
        stats.vertex_waves += 1;
        match ex.gs_alloc() {
            Some(a) if a == (nv, np) => {}
            Some((v, pr)) => {
                return Err(launch::rule(
                    &w,
                    format!(
                        "GS_ALLOC_REQ asked for {v} vertices and {pr} primitives; the wave has {nv} and {np}"
                    ),
                ))
            }
            None => {
                return Err(launch::rule(
                    &w,
                    "the NGG wave ended without s_sendmsg GS_ALLOC_REQ".into(),
                ))
            }
        }
        check_pos_done(&w, &ex)?;
        let mut vouts = Vec::new();
        for l in 0..nv {
            let mut v = vertex_out(p, &w, &ex, l)?;
            if let Some((desc, at)) = ring {
                if v.params.iter().any(Option::is_some) {
                    return Err(launch::rule(&w, "exp param on GFX11".into()));
                }
                // where the swizzled ring store of parameter `a` of vertex `l` went
                v.params = (0..needed as u64)
                    .map(|a| {
                        let mut c = [0u32; 4];
                        for (k, x) in c.iter_mut().enumerate() {
                            let off = desc.byte_offset(l, 16 * a + 4 * k as u64);
                            *x = m.mem.read_u32(launch::ATTR_RING + at + off)?;
                        }
                        Ok(Some(c))
                    })
                    .collect::<Result<_>>()?;
            }
            vouts.push(v);
        }
        for l in 0..np {
            let Some(e) = lane_export(&ex, Target::Prim, l) else {
                return Err(launch::rule(
                    &w,
                    format!("primitive lane {l} has no prim export"),
                ));
            };
            let c = e.data[l as usize][0];
            if c >> 31 == 1 {
                continue; // null primitive: culled by the shader
            }
            let mut idx = [c & 0x1ff, c >> 10 & 0x1ff, c >> 20 & 0x1ff];
            // a point reads index 0 only, a line indices 0 and 1
            match d.desc.topology.vertices() {
                1 => idx = [idx[0]; 3],
                2 => idx[2] = idx[1],
                _ => {}
            }
            if let Some(bad) = idx.iter().find(|&&i| i >= nv) {
                return Err(launch::rule(
                    &w,
                    format!("prim export of lane {l} names vertex {bad}; the wave has {nv}"),
                ));
            }
            out.push(idx.map(|i| vouts[i as usize].clone()));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// RADV's encodings of the four rates a vertex can ask for (X << 2 | Y << 4 on
    /// GFX10.3, X << 4 | Y << 2 on GFX11, X / Y = 1 for 2 pixels) decode to the
    /// fragment size; reserved bits and the other field values are refused.
    #[test]
    fn the_vertex_shading_rate_is_decoded_strictly() {
        for (x, y) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
            let size = (1 << x, 1 << y);
            assert_eq!(shading_rate(Gen::Gfx10, x << 2 | y << 4), Ok(size));
            assert_eq!(shading_rate(Gen::Gfx11, x << 4 | y << 2), Ok(size));
        }
        for gen in [Gen::Gfx10, Gen::Gfx11] {
            // the edge-flag bits, bits above 5, and the 4-pixel field values
            for bits in [1, 2, 0x40, 0x8000_0000, 2 << 2, 3 << 4, 0x3c] {
                assert!(shading_rate(gen, bits).is_err(), "{gen} {bits:#x}");
            }
        }
    }
}
