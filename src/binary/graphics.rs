//! The PAL metadata of a vertex + fragment pipeline — hardware VS + PS, `.type` `VsPs`
//! (GFX9), or NGG primitive shader + PS, `.type` `Ngg` (GFX10.3, GFX11) — from what the
//! backend knows of each stage ([`GraphicsStageInfo`]).
//!
//! Registers written (register numbers pal-abi.md §2.5; RSRC bit positions §3.4; the
//! other fields as Mesa's register headers name them, radeonsi/RADV):
//! - per stage: SPI_SHADER_PGM_RSRC1/2_VS|PS, SPI_SHADER_USER_DATA_VS|PS_i. RSRC1 packs
//!   like COMPUTE_PGM_RSRC1 in its low fields, with MEM_ORDERED at bit 27 (VS) / 25 (PS)
//!   on GFX10+ and no WGP_MODE; RSRC1_VS.VGPR_COMP_CNT is bits 25:24. RSRC2 holds
//!   SCRATCH_EN (bit 0) and USER_SGPR (bits 5:1).
//! - VS: SPI_VS_OUT_CONFIG (VS_EXPORT_COUNT 5:1 = parameters − 1, NO_PC_EXPORT bit 7),
//!   SPI_SHADER_POS_FORMAT (4 bits per position export, 4 = 4COMP), PA_CL_VS_OUT_CNTL
//!   (CLIP_DIST_ENA_n bits 7:0, CULL_DIST_ENA_n bits 15:8 with the cull distances after
//!   the clip distances, USE_VTX_POINT_SIZE 16, USE_VTX_RENDER_TARGET_INDX 18 and
//!   USE_VTX_VIEWPORT_INDX 19 (gl_Layer / gl_ViewportIndex in pos1.z), VS_OUT_MISC_VEC_ENA 21,
//!   VS_OUT_CCDIST0/1_VEC_ENA 22/23, VS_OUT_MISC_SIDE_BUS_ENA 24, USE_VTX_VRS_RATE 28 —
//!   GFX10.3+, Mesa's register database — with the primitive shading rate in pos1.y),
//!   VGT_SHADER_STAGES_EN (VS_W32_EN bit 23 for wave32), PA_SU_POINT_SIZE (1.0: HEIGHT/WIDTH 8, half sizes
//!   in 12.4) and PA_SU_POINT_MINMAX (0 to 0xffff), the sizes used without gl_PointSize.
//! - NGG (the vertex stage as `.gs`): RSRC1_GS packs like RSRC1_VS with MEM_ORDERED at bit
//!   25 and GS_VGPR_COMP_CNT 30:29 = 0 (passthrough: v0 only); RSRC2_GS.ES_VGPR_COMP_CNT
//!   17:16 (3 when InstanceID in v8 is read); VGT_SHADER_STAGES_EN = ES_EN 4:3 = REAL (2),
//!   PRIMGEN_EN 13, GS_W32_EN 22, PRIMGEN_PASSTHRU_EN 25; SPI_SHADER_IDX_FORMAT
//!   (IDX0_EXPORT_FORMAT 1COMP = 1, the `exp prim` value); GE_NGG_SUBGRP_CNTL
//!   (PRIM_AMP_FACTOR 8:0 = 1 vertex out per vertex in); VGT_GS_ONCHIP_CNTL
//!   (ES_VERTS_PER_SUBGRP 10:0, GS_PRIMS_PER_SUBGRP 21:11, GS_INST_PRIMS_IN_SUBGRP 31:22,
//!   all the wave size: one wave per subgroup) and GE_MAX_OUTPUT_PER_SUBGROUP (the wave
//!   size); SPI_VS_OUT_CONFIG, SPI_SHADER_POS_FORMAT and PA_CL_VS_OUT_CNTL as for the VS.
//!   These NGG fields are from Mesa's and LLPC's register facts, not checked against a
//!   GPU; the emulator reads VGT_SHADER_STAGES_EN's wave and passthrough bits.
//! - gl_PrimitiveID (the vertex parameters hold `SLOT_PRIMITIVE_ID`): VGT_PRIMITIVEID_EN
//!   (PRIMITIVEID_EN 0; NGG also NGG_DISABLE_PROVOK_REUSE 2), GFX9 VGT_GS_MODE.MODE =
//!   GS_SCENARIO_A (1), as RADV's `radv_emit_vgt_gs_mode` / `radv_shader.c` set them; a
//!   vertex stage that keeps the id (`GraphicsAbi::vs_primitive_id`): NGG
//!   RSRC1_GS.GS_VGPR_COMP_CNT 2, RSRC2_GS.LDS_SIZE (26:19, 512-byte units) with
//!   `.lds_size` and PRIMITIVEID_EN (it reads v2 even when the id is not exported);
//!   GFX9 VGPR_COMP_CNT ≥ 2.
//! - PS: SPI_PS_INPUT_ENA = SPI_PS_INPUT_ADDR, SPI_PS_IN_CONTROL (NUM_INTERP 5:0,
//!   PS_W32_EN bit 15), SPI_PS_INPUT_CNTL_n (OFFSET 5:0 = the vertex parameter, 0x20 =
//!   default value (0,0,0,0); FLAT_SHADE bit 10; PT_SPRITE_TEX bit 17 for gl_PointCoord;
//!   a per-vertex input sets FLAT_SHADE with OFFSET bit 5 — passthrough: P0/P10/P20 hold
//!   the three vertices' raw values, as RADV programs `pervertexEXT` inputs — and
//!   ROTATE_PC_PTR bit 11, GFX10.3+, for the API's vertex order),
//!   SPI_INTERP_CONTROL_0 (point sprites as RADV sets them), SPI_BARYC_CNTL (FRONT_FACE_ALL_BITS
//!   bit 24, positions at the pixel centre), SPI_SHADER_COL_FORMAT (4 bits per MRT),
//!   CB_SHADER_MASK (4 bits per MRT: the channels each export format carries, Mesa's
//!   `ac_get_cb_shader_mask`), CB_TARGET_MASK (4 bits per MRT: the attachment's write
//!   mask, as RADV's `radv_emit_color_write` programs it), DB_ALPHA_TO_MASK with alpha
//!   to coverage ([`ALPHA_TO_MASK_DITHERED`]), SPI_SHADER_Z_FORMAT (`MrtzExport::format` of the
//!   depth and sample-mask exports), DB_SHADER_CONTROL (Z_EXPORT_ENABLE 0, Z_ORDER 5:4,
//!   KILL_ENABLE 6, MASK_EXPORT_ENABLE 8 for gl_SampleMask, EXEC_ON_HIER_FAIL 9,
//!   EXEC_ON_NOOP 10, DEPTH_BEFORE_SHADER 12: the same on GFX9, GFX10.3 and GFX11 in
//!   Mesa's register database, src/amd/registers/gfx9/gfx103/gfx11.json, set as RADV's
//!   `radv_precompute_registers_hw_fs` sets them); PA_SC_MODE_CNTL_1
//!   (PS_ITER_SAMPLE bit 16) only for a shader that runs per sample
//!   (`GraphicsAbi::ps_sample_rate`: a sample-rate shader, the state's sample shading, or
//!   forced per-sample interpolation).

use super::error::{Error, Result};
use super::metadata::{
    ApiShader, ApiStage, HardwareStage, HwStage, PalMetadata, PipelineMetadata,
    PAL_METADATA_VERSION,
};
use super::registers::{FloatMode, Rsrc1, Rsrc2, UserData};
use crate::amdgpu::abi_graphics::ngg_primitive_id_lds_bytes;
use crate::amdgpu::abi_graphics::GraphicsAbi;
use crate::amdgpu::isel::graphics::{SLOT_POINT_COORD, SLOT_PRIMITIVE_ID};
use crate::isa::{Gen, Target};
use std::collections::BTreeMap;

pub const SPI_VS_OUT_CONFIG: u32 = 0xa1b1;
pub const SPI_PS_INPUT_CNTL_0: u32 = 0xa191;
pub const SPI_PS_INPUT_ENA: u32 = 0xa1b3;
pub const SPI_PS_INPUT_ADDR: u32 = 0xa1b4;
pub const SPI_PS_IN_CONTROL: u32 = 0xa1b6;
pub const SPI_BARYC_CNTL: u32 = 0xa1b8;
pub const SPI_SHADER_POS_FORMAT: u32 = 0xa1c3;
pub const SPI_SHADER_Z_FORMAT: u32 = 0xa1c4;
pub const SPI_SHADER_COL_FORMAT: u32 = 0xa1c5;
pub const CB_SHADER_MASK: u32 = 0xa08f;
pub const CB_TARGET_MASK: u32 = 0xa08e;
/// DB_ALPHA_TO_MASK (0x28B70): ALPHA_TO_MASK_ENABLE (bit 0), ALPHA_TO_MASK_OFFSET0..3
/// (2 bits each from bit 8: the dither offset of each pixel of a 2×2 quad, in quarter
/// samples), OFFSET_ROUND (bit 16).
pub const DB_ALPHA_TO_MASK: u32 = 0xa2dc;
/// DB_ALPHA_TO_MASK as RADV programs it with alpha to coverage on
/// (`radv_emit_alpha_to_coverage_enable`: dithered offsets 3, 1, 0, 2, OFFSET_ROUND).
pub const ALPHA_TO_MASK_DITHERED: u32 = 1 | 3 << 8 | 1 << 10 | 2 << 14 | 1 << 16;
pub const DB_SHADER_CONTROL: u32 = 0xa203;
pub const PA_CL_VS_OUT_CNTL: u32 = 0xa207;
pub const VGT_SHADER_STAGES_EN: u32 = 0xa2d5;
pub const VGT_PRIMITIVEID_EN: u32 = 0xa2a1;
pub const VGT_GS_MODE: u32 = 0xa290;
/// LDS_SIZE's unit (RSRC2_GS bits 26:19): 128 dwords (Mesa's `lds_encode_granularity`).
const LDS_UNIT: u32 = 512;
pub const SPI_SHADER_IDX_FORMAT: u32 = 0xa1c2;
pub const GE_NGG_SUBGRP_CNTL: u32 = 0xa2d3;
pub const VGT_GS_ONCHIP_CNTL: u32 = 0xa291;
pub const GE_MAX_OUTPUT_PER_SUBGROUP: u32 = 0xa1ff;
pub const SPI_INTERP_CONTROL_0: u32 = 0xa1b5;
pub const PA_SU_POINT_SIZE: u32 = 0xa280;
pub const PA_SU_POINT_MINMAX: u32 = 0xa281;
/// PA_SC_MODE_CNTL_1 (0x28A4C): PS_ITER_SAMPLE (bit 16) runs the pixel shader once per
/// sample of a multisampled draw (`PS_ITER_SAMPLE`).
pub const PA_SC_MODE_CNTL_1: u32 = 0xa293;
/// PA_SC_MODE_CNTL_1.PS_ITER_SAMPLE.
pub const PS_ITER_SAMPLE: u32 = 1 << 16;
/// SPI_INTERP_CONTROL_0 as RADV sets it: FLAT_SHADE_ENA, PNT_SPRITE_ENA, OVRD_X = S (2),
/// OVRD_Y = T (3), OVRD_Z = 0.0 (0), OVRD_W = 1.0 (1), PNT_SPRITE_TOP_1 = 0 (T = 0 at the
/// top, Vulkan's gl_PointCoord origin).
const INTERP_CONTROL: u32 = 1 | 1 << 1 | 2 << 2 | 3 << 5 | 1 << 11;
/// SPI_PS_INPUT_CNTL_n.PT_SPRITE_TEX: the input takes the point-sprite coordinates.
const PT_SPRITE_TEX: u32 = 1 << 17;
/// SPI_PS_INPUT_CNTL_n.ROTATE_PC_PTR (GFX10.3+, bit 11): a passthrough input's vertices
/// in the API's order rather than the parameter cache's per-primitive rotation.
const ROTATE_PC_PTR: u32 = 1 << 11;

/// One compiled graphics stage, as the metadata sees it.
#[derive(Clone, Debug, PartialEq)]
pub struct GraphicsStageInfo {
    pub stage: HwStage,
    pub vgprs: u32,
    pub sgprs: u32,
    pub user_data: Vec<UserData>,
    pub scratch_bytes_per_lane: u32,
    pub abi: GraphicsAbi,
}

/// A VS+PS pipeline.
#[derive(Clone, Debug, PartialEq)]
pub struct GraphicsPipelineInfo {
    pub target: Target,
    pub vs: GraphicsStageInfo,
    pub ps: GraphicsStageInfo,
}

fn rsrc(t: Target, s: &GraphicsStageInfo) -> Result<(u32, u32)> {
    let mut r1 = Rsrc1::new(t.gen, s.vgprs, s.sgprs, FloatMode::IEEE_DENORMS);
    r1.wgp_mode = false;
    r1.mem_ordered = false;
    let mut v1 = r1.pack(t)?;
    if t.gen.is_gfx10_plus() {
        v1 |= 1 << if s.stage == HwStage::Vs { 27 } else { 25 };
    }
    if s.stage == HwStage::Vs {
        v1 |= (s.abi.vgpr_comp_cnt & 3) << 24;
    }
    let mut r2 = Rsrc2 {
        scratch_en: s.scratch_bytes_per_lane > 0,
        user_sgprs: s.user_data.len() as u32,
        ..Rsrc2::default()
    }
    .pack()?;
    if s.stage == HwStage::Gs {
        r2 |= (s.abi.vgpr_comp_cnt & 3) << 16;
        if s.abi.vs_primitive_id {
            // GS_VGPR_COMP_CNT 2: v2 = the primitive id; LDS for its hand-off
            v1 |= 2 << 29;
            r2 |= ngg_primitive_id_lds_bytes(t.wave).div_ceil(LDS_UNIT) << 19;
        }
    }
    Ok((v1, r2))
}

impl GraphicsPipelineInfo {
    /// Every register of the pipeline.
    pub fn registers(&self) -> Result<BTreeMap<u32, u32>> {
        let t = self.target;
        let ngg = self.vs.stage == HwStage::Gs;
        if t.gen == Gen::Gfx11 && !ngg {
            return Err(Error::invalid(
                "graphics pipeline",
                "GFX11 has no hardware VS (NGG only)",
            ));
        }
        let w32 = t.wave == crate::isa::Wave::W32;
        let mut regs = BTreeMap::new();
        for s in [&self.vs, &self.ps] {
            let (r1, r2) = rsrc(t, s)?;
            regs.insert(s.stage.rsrc1(), r1);
            regs.insert(s.stage.rsrc2(), r2);
            for (i, u) in s.user_data.iter().enumerate() {
                regs.insert(s.stage.user_data_base() + i as u32, u.encode());
            }
        }
        let vs = &self.vs.abi;
        let ps = &self.ps.abi;
        // VS
        let params = vs.vs_params.len() as u32;
        regs.insert(
            SPI_VS_OUT_CONFIG,
            (params.max(1) - 1) << 1 | ((params == 0) as u32) << 7,
        );
        let pos: u32 = (0..vs.pos_exports).map(|k| 4 << (4 * k)).sum();
        regs.insert(SPI_SHADER_POS_FORMAT, pos);
        let psize = vs.writes_point_size as u32;
        let vrs = vs.writes_shading_rate as u32;
        let (layer, viewport) = (vs.writes_layer as u32, vs.writes_viewport as u32);
        let misc = psize | vrs | layer | viewport;
        let dists = vs.clip_distances + vs.cull_distances;
        let clip_mask = (1u32 << vs.clip_distances) - 1;
        let cull_mask = ((1u32 << vs.cull_distances) - 1) << vs.clip_distances;
        regs.insert(
            PA_CL_VS_OUT_CNTL,
            clip_mask
                | cull_mask << 8
                | psize << 16
                | layer << 18
                | viewport << 19
                | misc << 21
                | ((dists > 0) as u32) << 22
                | ((dists > 4) as u32) << 23
                | misc << 24
                | vrs << 28,
        );
        if ngg {
            let lanes = t.wave.lanes();
            regs.insert(
                VGT_SHADER_STAGES_EN,
                2 << 3 | 1 << 13 | (w32 as u32) << 22 | 1 << 25,
            );
            regs.insert(SPI_SHADER_IDX_FORMAT, 1);
            regs.insert(GE_NGG_SUBGRP_CNTL, 1);
            regs.insert(VGT_GS_ONCHIP_CNTL, lanes | lanes << 11 | lanes << 22);
            regs.insert(GE_MAX_OUTPUT_PER_SUBGROUP, lanes);
        } else if t.gen.is_gfx10_plus() {
            regs.insert(VGT_SHADER_STAGES_EN, (w32 as u32) << 23);
        }
        // the primitive id reaches the vertex stage (PRIMITIVEID_EN) when it is exported,
        // with NGG_DISABLE_PROVOK_REUSE (each primitive its own provoking vertex, for the
        // LDS hand-off) or, for a hardware VS, GS_SCENARIO_A (RADV); an NGG stage that
        // keeps it without exporting it (unlinked) still reads v2, so it is enabled
        let exported = vs.vs_params.contains(&SLOT_PRIMITIVE_ID);
        if exported || (ngg && vs.vs_primitive_id) {
            regs.insert(VGT_PRIMITIVEID_EN, 1 | ((ngg && exported) as u32) << 2);
        }
        if exported && !ngg {
            regs.insert(VGT_GS_MODE, 1);
        }
        // PS
        regs.insert(SPI_PS_INPUT_ENA, ps.ps_input_ena);
        regs.insert(SPI_PS_INPUT_ADDR, ps.ps_input_ena);
        let n = ps.ps_attributes.len() as u32;
        regs.insert(
            SPI_PS_IN_CONTROL,
            n | ((w32 && t.gen.is_gfx10_plus()) as u32) << 15,
        );
        for (k, &(loc, flat)) in ps.ps_attributes.iter().enumerate() {
            let offset = match vs.vs_params.iter().position(|&l| l == loc) {
                Some(p) => p as u32,
                None if loc == SLOT_POINT_COORD => 0x20 | PT_SPRITE_TEX,
                None => 0x20,
            };
            // an input the vertex stage does not write reads DEFAULT_VAL (OFFSET bit 5),
            // and must not be FLAT_SHADE: with it, bit 5 selects passthrough instead
            let read = offset & 0x20 == 0;
            // a per-vertex input: passthrough (FLAT_SHADE with OFFSET bit 5, the raw values
            // of the three vertices in P0/P10/P20) in the API's order (ROTATE_PC_PTR)
            let passthrough = if read && ps.ps_per_vertex.contains(&loc) {
                0x20 | ROTATE_PC_PTR
            } else {
                0
            };
            regs.insert(
                SPI_PS_INPUT_CNTL_0 + k as u32,
                offset | passthrough | ((flat && read) as u32) << 10,
            );
        }
        regs.insert(SPI_INTERP_CONTROL_0, INTERP_CONTROL);
        // points: 1.0 unless the vertex stage writes gl_PointSize; sizes up to 8191.875
        // (half sizes in 12.4 fixed point, RADV's limits)
        regs.insert(PA_SU_POINT_SIZE, 8 | 8 << 16);
        regs.insert(PA_SU_POINT_MINMAX, 0xffff << 16);
        regs.insert(SPI_BARYC_CNTL, 1 << 24);
        if ps.ps_sample_rate {
            regs.insert(PA_SC_MODE_CNTL_1, PS_ITER_SAMPLE);
        }
        let (mut col, mut mask) = (0u32, 0u32);
        for &(mrt, f) in &ps.colors {
            col |= f.code() << (4 * mrt);
            mask |= f.channel_mask() << (4 * mrt);
        }
        regs.insert(SPI_SHADER_COL_FORMAT, col);
        regs.insert(CB_SHADER_MASK, mask);
        regs.insert(CB_TARGET_MASK, ps.cb_target_mask);
        let mrtz = crate::amdgpu::abi_graphics::MrtzExport {
            depth: ps.writes_depth,
            sample_mask: ps.writes_sample_mask,
            alpha: ps.mrtz_alpha,
        };
        if ps.alpha_to_coverage {
            regs.insert(DB_ALPHA_TO_MASK, ALPHA_TO_MASK_DITHERED);
        }
        regs.insert(SPI_SHADER_Z_FORMAT, mrtz.format().map_or(0, |f| f.code()));
        let early_z = ps.early_fragment_tests || !ps.writes_memory;
        regs.insert(
            DB_SHADER_CONTROL,
            ps.writes_depth as u32
                | (early_z as u32) << 4
                | (ps.can_discard as u32) << 6
                | (ps.writes_sample_mask as u32) << 8
                | (ps.writes_memory as u32) << 9
                | (ps.writes_memory as u32) << 10
                | (ps.early_fragment_tests as u32) << 12,
        );
        Ok(regs)
    }

    /// The PAL metadata of the pipeline.
    pub fn to_metadata(&self) -> Result<PalMetadata> {
        let registers = self.registers()?;
        let mut hardware_stages = BTreeMap::new();
        let mut shaders = BTreeMap::new();
        let mut user_data_limit = 0;
        for (s, api) in [(&self.vs, ApiStage::Vertex), (&self.ps, ApiStage::Pixel)] {
            hardware_stages.insert(
                s.stage,
                HardwareStage {
                    entry_point: s.stage.entry_symbol(),
                    scratch_memory_size: s.scratch_bytes_per_lane.next_multiple_of(16),
                    lds_size: if s.stage == HwStage::Gs && s.abi.vs_primitive_id {
                        ngg_primitive_id_lds_bytes(self.target.wave)
                    } else {
                        0
                    },
                    sgpr_count: s.sgprs,
                    vgpr_count: s.vgprs,
                    wavefront_size: Some(self.target.wave),
                    threadgroup_dimensions: None,
                    extra: BTreeMap::new(),
                },
            );
            shaders.insert(
                api,
                ApiShader {
                    api_shader_hash: [0, 0],
                    hardware_mapping: vec![s.stage],
                    extra: BTreeMap::new(),
                },
            );
            for u in &s.user_data {
                if let UserData::Entry(n) = u {
                    user_data_limit = user_data_limit.max(n + 1);
                }
            }
        }
        Ok(PalMetadata {
            version: Some(PAL_METADATA_VERSION),
            pipeline: PipelineMetadata {
                name: None,
                pipeline_type: if self.vs.stage == HwStage::Gs {
                    "Ngg"
                } else {
                    "VsPs"
                }
                .into(),
                api: "Vulkan".into(),
                internal_pipeline_hash: [0, 0],
                shaders,
                hardware_stages,
                registers,
                user_data_limit,
                spill_threshold: 0xffff,
                extra: BTreeMap::new(),
            },
            prelink: None,
            extra: BTreeMap::new(),
        })
    }
}
