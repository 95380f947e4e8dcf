//! The compute shader's facts and the PAL metadata they produce, both ways.
//!
//! [`ComputeShaderInfo`] is what the backend knows after register allocation (register
//! counts, user-SGPR layout, enabled system SGPRs/VGPRs, LDS, scratch, workgroup size, float
//! mode). [`ComputeShaderInfo::to_metadata`] validates it and packs the compute registers
//! into a PAL 2.6 tree; [`ComputeShaderInfo::from_metadata`] recovers it from a tree, which
//! is what the emulator needs to set up a dispatch from an ELF.
//!
//! Invariant: `from_metadata(&info.to_metadata()?, info.target.gen, info.code_bytes)? == info`.

use super::error::{Error, Result};
use super::metadata::{
    ApiShader, ApiStage, HardwareStage, HwStage, PalMetadata, PipelineMetadata,
    PAL_METADATA_VERSION,
};
use super::registers::{self, FloatMode, Rsrc1, Rsrc2, Rsrc3, UserData};
use crate::isa::{Gen, Target};
use std::collections::BTreeMap;

/// What the backend knows about a compiled compute shader; everything the CS metadata and
/// registers are computed from.
#[derive(Clone, Debug, PartialEq)]
pub struct ComputeShaderInfo {
    /// Target GPU and wave size.
    pub target: Target,
    /// VGPRs used (highest index + 1).
    pub vgprs: u32,
    /// SGPRs used including VCC (and XNACK_MASK on gfx900 with xnack).
    pub sgprs: u32,
    /// FLOAT_MODE byte.
    pub float_mode: FloatMode,
    /// IEEE_MODE.
    pub ieee_mode: bool,
    /// DX10_CLAMP.
    pub dx10_clamp: bool,
    /// WGP_MODE (GFX10+; ignored on GFX9).
    pub wgp_mode: bool,
    /// What each user SGPR holds, from s0 (at most 16).
    pub user_data: Vec<UserData>,
    /// TGID_X/Y/Z_EN.
    pub tgid_en: [bool; 3],
    /// TG_SIZE_EN.
    pub tg_size_en: bool,
    /// TIDIG_COMP_CNT: 0 = X, 1 = XY, 2 = XYZ.
    pub tidig_comp_cnt: u32,
    /// LDS bytes per workgroup.
    pub lds_bytes: u32,
    /// Scratch bytes per lane (rounded up to 16 in the metadata); non-zero sets SCRATCH_EN.
    pub scratch_bytes_per_lane: u32,
    /// Workgroup size.
    pub workgroup_size: [u32; 3],
    /// Code bytes of the entry, excluding padding (for GFX11 INST_PREF_SIZE).
    pub code_bytes: u64,
    /// `.api_shader_hash` of the compute shader.
    pub api_shader_hash: [u64; 2],
    /// `.internal_pipeline_hash`.
    pub pipeline_hash: [u64; 2],
}

impl ComputeShaderInfo {
    /// A shader with no resources yet for `target` (its wave size included), float mode
    /// 0xF0, DX10 clamp on, IEEE off, WGP mode on GFX10+, workgroup 1x1x1.
    pub fn new(target: Target) -> ComputeShaderInfo {
        ComputeShaderInfo {
            target,
            vgprs: 1,
            sgprs: 1,
            float_mode: FloatMode::IEEE_DENORMS,
            ieee_mode: false,
            dx10_clamp: true,
            wgp_mode: target.gen.is_gfx10_plus(),
            user_data: Vec::new(),
            tgid_en: [false; 3],
            tg_size_en: false,
            tidig_comp_cnt: 0,
            lds_bytes: 0,
            scratch_bytes_per_lane: 0,
            workgroup_size: [1, 1, 1],
            code_bytes: 0,
            api_shader_hash: [0, 0],
            pipeline_hash: [0, 0],
        }
    }

    /// COMPUTE_PGM_RSRC1 fields.
    pub fn rsrc1(&self) -> Rsrc1 {
        let g10 = self.target.gen.is_gfx10_plus();
        Rsrc1 {
            ieee_mode: self.ieee_mode,
            dx10_clamp: self.dx10_clamp,
            wgp_mode: g10 && self.wgp_mode,
            ..Rsrc1::new(self.target.gen, self.vgprs, self.sgprs, self.float_mode)
        }
    }

    /// COMPUTE_PGM_RSRC2 fields.
    pub fn rsrc2(&self) -> Rsrc2 {
        Rsrc2 {
            scratch_en: self.scratch_bytes_per_lane > 0,
            user_sgprs: self.user_data.len() as u32,
            tgid_en: self.tgid_en,
            tg_size_en: self.tg_size_en,
            tidig_comp_cnt: self.tidig_comp_cnt,
            lds_bytes: self.lds_bytes,
            ..Rsrc2::default()
        }
    }

    /// All compute registers, checked and packed.
    pub fn registers(&self) -> Result<BTreeMap<u32, u32>> {
        let t = self.target;
        let mut regs = BTreeMap::new();
        regs.insert(registers::COMPUTE_PGM_RSRC1, self.rsrc1().pack(t)?);
        regs.insert(registers::COMPUTE_PGM_RSRC2, self.rsrc2().pack()?);
        if t.info().rsrc3 {
            let r3 = Rsrc3 {
                inst_pref_size: t.info().inst_pref_size(self.code_bytes),
                ..Rsrc3::default()
            };
            regs.insert(registers::COMPUTE_PGM_RSRC3, r3.pack(t)?);
        }
        if let Some(v) = registers::dispatch_initiator(t)? {
            regs.insert(registers::COMPUTE_DISPATCH_INITIATOR, v);
        }
        for (r, v) in registers::num_threads(self.workgroup_size)? {
            regs.insert(r, v);
        }
        for (r, v) in registers::user_data_registers(&self.user_data)? {
            regs.insert(r, v);
        }
        Ok(regs)
    }

    /// The complete PAL metadata of a compute pipeline made of this shader.
    pub fn to_metadata(&self) -> Result<PalMetadata> {
        let registers = self.registers()?;
        let user_data_limit = self
            .user_data
            .iter()
            .filter_map(|u| match u {
                UserData::Entry(n) => Some(n + 1),
                _ => None,
            })
            .max()
            .unwrap_or(0);
        let stage = HardwareStage {
            entry_point: HwStage::Cs.entry_symbol(),
            scratch_memory_size: self.scratch_bytes_per_lane.next_multiple_of(16),
            lds_size: self.lds_bytes,
            sgpr_count: self.sgprs,
            vgpr_count: self.vgprs,
            wavefront_size: Some(self.target.wave),
            threadgroup_dimensions: Some(self.workgroup_size),
            extra: BTreeMap::new(),
        };
        let shader = ApiShader {
            api_shader_hash: self.api_shader_hash,
            hardware_mapping: vec![HwStage::Cs],
            extra: BTreeMap::new(),
        };
        Ok(PalMetadata {
            version: Some(PAL_METADATA_VERSION),
            pipeline: PipelineMetadata {
                name: None,
                pipeline_type: "Cs".into(),
                api: "Vulkan".into(),
                internal_pipeline_hash: self.pipeline_hash,
                shaders: BTreeMap::from([(ApiStage::Compute, shader)]),
                hardware_stages: BTreeMap::from([(HwStage::Cs, stage)]),
                registers,
                user_data_limit,
                spill_threshold: 0xffff,
                extra: BTreeMap::new(),
            },
            prelink: None,
            extra: BTreeMap::new(),
        })
    }

    /// Recovers the facts from a compute pipeline's metadata (ours or llc's). Exact counts
    /// come from the hardware-stage map where present, otherwise from the registers
    /// (rounded to their granules); `code_bytes` is the entry's size, which the metadata does
    /// not record.
    pub fn from_metadata(md: &PalMetadata, gen: Gen, code_bytes: u64) -> Result<ComputeShaderInfo> {
        let p = &md.pipeline;
        let stage = p.hardware_stages.get(&HwStage::Cs);
        let reg = |r: u32| -> Result<u32> {
            p.registers.get(&r).copied().ok_or_else(|| {
                Error::metadata(
                    format!("amdpal.pipelines[0].registers.{r:#x}"),
                    "missing compute register",
                )
            })
        };
        let wave = p.wave(HwStage::Cs);
        let target = Target { gen, wave }.check_wave().map_err(|_| {
            Error::metadata(
                "amdpal.pipelines[0].hardware_stages.cs.wavefront_size",
                format!("{wave} on {gen}"),
            )
        })?;
        let r1 = Rsrc1::unpack(reg(registers::COMPUTE_PGM_RSRC1)?, target);
        let r2 = Rsrc2::unpack(reg(registers::COMPUTE_PGM_RSRC2)?);
        let nonzero = |v: Option<u32>| v.filter(|&v| v != 0);
        let workgroup_size = match stage.and_then(|s| s.threadgroup_dimensions) {
            Some(d) => d,
            None => [
                reg(registers::COMPUTE_NUM_THREAD_X)? & 0xffff,
                reg(registers::COMPUTE_NUM_THREAD_Y)? & 0xffff,
                reg(registers::COMPUTE_NUM_THREAD_Z)? & 0xffff,
            ],
        };
        let user_data = p.user_data_map(HwStage::Cs)?;
        if user_data.len() != r2.user_sgprs as usize {
            return Err(Error::metadata(
                "amdpal.pipelines[0].registers",
                format!(
                    "RSRC2.USER_SGPR is {} but {} COMPUTE_USER_DATA registers are mapped",
                    r2.user_sgprs,
                    user_data.len()
                ),
            ));
        }
        Ok(ComputeShaderInfo {
            target,
            vgprs: nonzero(stage.map(|s| s.vgpr_count)).unwrap_or(r1.vgprs),
            sgprs: nonzero(stage.map(|s| s.sgpr_count)).unwrap_or(r1.sgprs),
            float_mode: r1.float_mode,
            ieee_mode: r1.ieee_mode,
            dx10_clamp: r1.dx10_clamp,
            wgp_mode: r1.wgp_mode,
            user_data,
            tgid_en: r2.tgid_en,
            tg_size_en: r2.tg_size_en,
            tidig_comp_cnt: r2.tidig_comp_cnt,
            lds_bytes: nonzero(stage.map(|s| s.lds_size)).unwrap_or(r2.lds_bytes),
            scratch_bytes_per_lane: stage.map_or(0, |s| s.scratch_memory_size),
            workgroup_size,
            code_bytes,
            api_shader_hash: p
                .shaders
                .get(&ApiStage::Compute)
                .map_or([0, 0], |s| s.api_shader_hash),
            pipeline_hash: p.internal_pipeline_hash,
        })
    }
}
