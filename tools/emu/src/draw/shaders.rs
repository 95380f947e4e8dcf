//! The graphics pipeline a draw runs: code plus the register facts the hardware reads at
//! launch, taken from a PAL ELF's metadata (pal-abi.md §2, §3.6, §4.3, §4.4) or filled
//! in directly by a caller that has no ELF.
//!
//! `.hardware_stages` must hold `.ps` and either `.vs` (GFX9 hardware VS) or `.gs`
//! (GFX10.3/GFX11 NGG; GFX11 has no hardware VS). Registers read: each stage's RSRC1
//! (FLOAT_MODE) and RSRC2 (USER_SGPR, SCRATCH_EN, with `.scratch_memory_size`), its USER_DATA_i mapping,
//! SPI_PS_INPUT_ENA/ADDR, SPI_PS_IN_CONTROL (NUM_INTERP, PS_W32_EN),
//! SPI_PS_INPUT_CNTL_i (OFFSET, FLAT_SHADE, PT_SPRITE_TEX), SPI_SHADER_COL_FORMAT, SPI_SHADER_Z_FORMAT,
//! DB_SHADER_CONTROL (Z_EXPORT_ENABLE, MASK_EXPORT_ENABLE), CB_TARGET_MASK, CB_SHADER_MASK,
//! DB_ALPHA_TO_MASK,
//! SPI_VS_OUT_CONFIG (VS_EXPORT_COUNT, PRIM_EXPORT_COUNT: the GFX11 attribute ring's record),
//! VGT_PRIMITIVEID_EN (PRIMITIVEID_EN, NGG_DISABLE_PROVOK_REUSE), VGT_GS_MODE (MODE),
//! RSRC1_VS.VGPR_COMP_CNT / RSRC1_GS.GS_VGPR_COMP_CNT and RSRC2_GS.LDS_SIZE,
//! VGT_SHADER_STAGES_EN (VS/GS_W32_EN, PRIMGEN_PASSTHRU_EN) and for points
//! SPI_INTERP_CONTROL_0, PA_CL_VS_OUT_CNTL (USE_VTX_POINT_SIZE, USE_VTX_VRS_RATE on GFX10.3+, the
//! clip/cull distance enables and vector enables), PA_SU_POINT_SIZE and
//! PA_SU_POINT_MINMAX, PA_SC_MODE_CNTL_1.PS_ITER_SAMPLE (absent registers read as 0). A stage's wave size is `.wavefront_size` when
//! present, else those W32 bits (GFX9: wave64).

use crate::error::{Error, Result};
use gcnc::binary::graphics::{
    CB_SHADER_MASK, CB_TARGET_MASK, DB_ALPHA_TO_MASK, DB_SHADER_CONTROL, PA_SC_MODE_CNTL_1,
    PS_ITER_SAMPLE,
};
use gcnc::binary::registers::UserData;
use gcnc::binary::{ElfFile, HwStage};
use gcnc::isa::{Gen, Target, Wave};

pub const SPI_PS_INPUT_CNTL_0: u32 = 0xa191;
pub const SPI_PS_INPUT_ENA: u32 = 0xa1b3;
pub const SPI_PS_INPUT_ADDR: u32 = 0xa1b4;
pub const SPI_PS_IN_CONTROL: u32 = 0xa1b6;
pub const SPI_SHADER_Z_FORMAT: u32 = 0xa1c4;
pub const SPI_SHADER_COL_FORMAT: u32 = 0xa1c5;
pub const VGT_SHADER_STAGES_EN: u32 = 0xa2d5;
pub const SPI_INTERP_CONTROL_0: u32 = 0xa1b5;
pub const PA_CL_VS_OUT_CNTL: u32 = 0xa207;
pub const SPI_VS_OUT_CONFIG: u32 = 0xa1b1;
pub const VGT_PRIMITIVEID_EN: u32 = 0xa2a1;
pub const VGT_GS_MODE: u32 = 0xa290;
pub const PA_SU_POINT_SIZE: u32 = 0xa280;
pub const PA_SU_POINT_MINMAX: u32 = 0xa281;

/// One hardware stage.
#[derive(Clone, Debug, PartialEq)]
pub struct Stage {
    pub target: Target,
    /// Byte offset of the entry in `code`.
    pub entry: u64,
    /// What each user SGPR holds (index = user SGPR, from s0, or s8 for NGG).
    pub user_data: Vec<UserData>,
    pub vgprs: usize,
    pub float_mode: u32,
    /// The hardware stage (VS, GS = NGG, PS).
    pub hw: HwStage,
    /// RSRC2 SCRATCH_EN and `.scratch_memory_size` (bytes per lane).
    pub scratch_en: bool,
    pub scratch_bytes: u64,
    /// The system VGPRs loaded: hardware VS RSRC1.VGPR_COMP_CNT (25:24: v1..v3), NGG
    /// RSRC1_GS.GS_VGPR_COMP_CNT (30:29: v1..v3 of the primitive lanes).
    pub comp_cnt: u32,
    /// NGG: the wave's LDS, RSRC2_GS.LDS_SIZE (26:19) × 512 bytes.
    pub lds_bytes: usize,
}

/// A vertex + pixel pipeline.
#[derive(Clone, Debug, PartialEq)]
pub struct Pipeline {
    pub code: Vec<u8>,
    /// The vertex stage: a hardware VS (GFX9) or an NGG primitive shader.
    pub vs: Stage,
    pub ngg: bool,
    /// NGG passthrough (VGT_SHADER_STAGES_EN.PRIMGEN_PASSTHRU_EN, bit 25): the hardware
    /// gives each primitive lane its `exp prim` value in v0.
    pub ngg_passthrough: bool,
    pub ps: Stage,
    pub ps_input_ena: u32,
    pub ps_input_addr: u32,
    /// SPI_PS_INPUT_CNTL_i of the NUM_INTERP pixel-shader inputs.
    pub ps_input_cntl: Vec<u32>,
    /// VGT_PRIMITIVEID_EN: PRIMITIVEID_EN (0), NGG_DISABLE_PROVOK_REUSE (2).
    pub primitive_id_en: u32,
    /// VGT_GS_MODE.MODE (2:0): 1 = GS_SCENARIO_A (a hardware VS gets the primitive id).
    pub gs_mode: u32,
    /// SPI_VS_OUT_CONFIG: VS_EXPORT_COUNT (5:1, parameters − 1), PRIM_EXPORT_COUNT (12:8).
    pub vs_out_config: u32,
    pub col_format: u32,
    /// CB_TARGET_MASK (4 bits per MRT: the channels the colour blender writes; the
    /// attachment keeps its value in the others) and CB_SHADER_MASK (4 bits per MRT: the
    /// channels the shader's export carries).
    pub cb_target_mask: u32,
    pub cb_shader_mask: u32,
    pub z_format: u32,
    /// DB_SHADER_CONTROL: Z_EXPORT_ENABLE (bit 0: the depth comes from `mrtz`'s red) and
    /// MASK_EXPORT_ENABLE (bit 8: `mrtz`'s blue is a sample mask ANDed with coverage).
    pub db_shader_control: u32,
    /// DB_ALPHA_TO_MASK: ALPHA_TO_MASK_ENABLE (bit 0), the dither offsets
    /// ALPHA_TO_MASK_OFFSET0..3 (2 bits each from bit 8), OFFSET_ROUND (bit 16).
    pub alpha_to_mask: u32,
    /// SPI_INTERP_CONTROL_0: PNT_SPRITE_ENA (bit 1), PNT_SPRITE_OVRD_X/Y/Z/W (3 bits each
    /// from bit 2: 0 → 0.0, 1 → 1.0, 2 → S, 3 → T, 4 → none), PNT_SPRITE_TOP_1 (bit 14).
    pub interp_control: u32,
    /// PA_CL_VS_OUT_CNTL.USE_VTX_POINT_SIZE (bit 16): the point size is `pos1.x`.
    pub vtx_point_size: bool,
    /// PA_CL_VS_OUT_CNTL: CLIP_DIST_ENA_n (bits 7:0) and CULL_DIST_ENA_n (15:8) name
    /// distance slot n (channel n % 4 of distance vector n / 4) a clip or a cull
    /// distance; VS_OUT_MISC_VEC_ENA (21), VS_OUT_CCDIST0/1_VEC_ENA (22/23) say which
    /// position exports after `pos0` hold the misc vector and the two distance vectors,
    /// in that order (`vertex.rs`).
    pub vs_out_cntl: u32,
    /// PA_CL_VS_OUT_CNTL.USE_VTX_VRS_RATE (bit 28, GFX10.3+): the vertex shading rate
    /// is `pos1.y`.
    pub vtx_vrs_rate: bool,
    /// PA_CL_VS_OUT_CNTL.USE_VTX_RENDER_TARGET_INDX (bit 18): gl_Layer in pos1.z.
    pub vtx_layer: bool,
    /// PA_CL_VS_OUT_CNTL.USE_VTX_VIEWPORT_INDX (bit 19): gl_ViewportIndex in pos1.z.
    pub vtx_viewport: bool,
    /// PA_SU_POINT_SIZE (HEIGHT 15:0, WIDTH 31:16: half sizes in 12.4 fixed point) and
    /// PA_SU_POINT_MINMAX (MIN_SIZE 15:0, MAX_SIZE 31:16, likewise).
    pub point_size: u32,
    pub point_minmax: u32,
    /// PA_SC_MODE_CNTL_1.PS_ITER_SAMPLE: a multisampled draw runs the pixel shader once
    /// per covered sample rather than once per pixel (what the pipeline asks for; the
    /// sample count is the draw's).
    pub ps_iter_sample: bool,
}

fn stage_wave(gen: Gen, md: &gcnc::binary::metadata::PipelineMetadata, stage: HwStage) -> Wave {
    if gen == Gen::Gfx9 {
        return Wave::W64;
    }
    if let Some(w) = md
        .hardware_stages
        .get(&stage)
        .and_then(|s| s.wavefront_size)
    {
        return w;
    }
    let reg = |r: u32| md.registers.get(&r).copied().unwrap_or(0);
    let w32 = match stage {
        HwStage::Ps => reg(SPI_PS_IN_CONTROL) >> 15 & 1 == 1,
        HwStage::Gs => reg(VGT_SHADER_STAGES_EN) >> 22 & 1 == 1,
        _ => reg(VGT_SHADER_STAGES_EN) >> 23 & 1 == 1,
    };
    if w32 {
        Wave::W32
    } else {
        Wave::W64
    }
}

impl Pipeline {
    /// Reads a pipeline ELF. `wave` forces both stages' wave size.
    pub fn from_elf(bytes: &[u8], wave: Option<Wave>) -> Result<Pipeline> {
        let elf = ElfFile::parse(bytes).map_err(|e| Error::setup(format!("ELF: {e}")))?;
        let gen = elf
            .gen()
            .ok_or_else(|| Error::setup("ELF target is not gfx900/gfx1030/gfx1100"))?;
        let code = elf
            .text()
            .ok_or_else(|| Error::setup("ELF has no .text"))?
            .to_vec();
        let md = elf
            .pal_metadata()
            .map_err(|e| Error::setup(format!("PAL metadata: {e}")))?
            .ok_or_else(|| Error::setup("ELF has no PAL metadata"))?;
        let p = &md.pipeline;
        let has = |s: HwStage| p.hardware_stages.contains_key(&s);
        let vs_stage =
            match (has(HwStage::Vs), has(HwStage::Gs), gen) {
                (true, false, Gen::Gfx11) => {
                    return Err(Error::setup(
                        "a hardware VS on gfx1100, which has none (NGG only: .gs)",
                    ))
                }
                (true, false, _) => HwStage::Vs,
                (false, true, Gen::Gfx9) => {
                    return Err(Error::setup("NGG (.gs) on gfx900, which has no NGG"))
                }
                (false, true, _) => HwStage::Gs,
                _ => return Err(Error::setup(
                    "the pipeline's .hardware_stages must hold .ps and exactly one of .vs / .gs",
                )),
            };
        if !has(HwStage::Ps) {
            return Err(Error::setup("the pipeline has no .ps hardware stage"));
        }
        let reg = |r: u32| p.registers.get(&r).copied().unwrap_or(0);
        let stage = |s: HwStage| -> Result<Stage> {
            let hw = &p.hardware_stages[&s];
            let entry = elf
                .symbol(&hw.entry_point)
                .or_else(|| elf.entry(s))
                .ok_or_else(|| {
                    Error::setup(format!(
                        "no entry symbol {} for {}",
                        hw.entry_point,
                        s.key()
                    ))
                })?
                .value;
            let mut user_data = p
                .user_data_map(s)
                .map_err(|e| Error::setup(format!("{e}")))?;
            let user_sgprs = (reg(s.rsrc2()) >> 1 & 0x1f) as usize;
            if user_sgprs > user_data.len() {
                user_data.resize(user_sgprs, UserData::Unused);
            }
            let w = wave.unwrap_or_else(|| stage_wave(gen, p, s));
            let target = Target::with_wave(gen, w).map_err(|e| Error::setup(e.to_string()))?;
            Ok(Stage {
                target,
                entry,
                user_data,
                vgprs: (hw.vgpr_count as usize).clamp(1, 256).max(16),
                float_mode: p.float_mode(s).map(|f| f.0 as u32).unwrap_or(0xc0),
                hw: s,
                scratch_en: hw.scratch_memory_size > 0 || reg(s.rsrc2()) & 1 == 1,
                scratch_bytes: hw.scratch_memory_size as u64,
                comp_cnt: match s {
                    HwStage::Gs => reg(s.rsrc1()) >> 29 & 3,
                    _ => reg(s.rsrc1()) >> 24 & 3,
                },
                lds_bytes: match s {
                    HwStage::Gs => (reg(s.rsrc2()) >> 19 & 0xff) as usize * 512,
                    _ => 0,
                },
            })
        };
        let num_interp = reg(SPI_PS_IN_CONTROL) & 0x3f;
        let vtx_vrs_rate = reg(PA_CL_VS_OUT_CNTL) >> 28 & 1 == 1;
        if vtx_vrs_rate && gen == Gen::Gfx9 {
            return Err(Error::setup(
                "PA_CL_VS_OUT_CNTL.USE_VTX_VRS_RATE (bit 28) on gfx900, which has no \
                 variable-rate shading",
            ));
        }
        Ok(Pipeline {
            vs: stage(vs_stage)?,
            ngg: vs_stage == HwStage::Gs,
            ngg_passthrough: vs_stage == HwStage::Gs && reg(VGT_SHADER_STAGES_EN) >> 25 & 1 == 1,
            ps: stage(HwStage::Ps)?,
            code,
            ps_input_ena: reg(SPI_PS_INPUT_ENA),
            ps_input_addr: reg(SPI_PS_INPUT_ADDR),
            ps_input_cntl: (0..num_interp)
                .map(|i| reg(SPI_PS_INPUT_CNTL_0 + i))
                .collect(),
            vs_out_config: reg(SPI_VS_OUT_CONFIG),
            primitive_id_en: reg(VGT_PRIMITIVEID_EN),
            gs_mode: reg(VGT_GS_MODE) & 7,
            col_format: reg(SPI_SHADER_COL_FORMAT),
            cb_target_mask: reg(CB_TARGET_MASK),
            cb_shader_mask: reg(CB_SHADER_MASK),
            z_format: reg(SPI_SHADER_Z_FORMAT),
            db_shader_control: reg(DB_SHADER_CONTROL),
            alpha_to_mask: reg(DB_ALPHA_TO_MASK),
            interp_control: reg(SPI_INTERP_CONTROL_0),
            vtx_point_size: reg(PA_CL_VS_OUT_CNTL) >> 16 & 1 == 1,
            vs_out_cntl: reg(PA_CL_VS_OUT_CNTL),
            vtx_vrs_rate,
            vtx_layer: reg(PA_CL_VS_OUT_CNTL) >> 18 & 1 == 1,
            vtx_viewport: reg(PA_CL_VS_OUT_CNTL) >> 19 & 1 == 1,
            point_size: reg(PA_SU_POINT_SIZE),
            point_minmax: reg(PA_SU_POINT_MINMAX),
            ps_iter_sample: reg(PA_SC_MODE_CNTL_1) & PS_ITER_SAMPLE != 0,
        })
    }
}
