//! Compute register numbers and bit-field packing (pal-abi.md §2.5, §2.6, §3.1-§3.3, §3.5).
//!
//! Register numbers are dword indices (MMIO byte address / 4), as PAL 2.x `.registers` keys.
//! Each packer takes the facts the backend knows (register counts, LDS bytes, ...) and
//! returns the register value; each decoder does the reverse for readers (emulator,
//! disassembler). Out-of-range inputs are `Error::InvalidInput`, never silently truncated.
//!
//! Encodings, per generation:
//! - RSRC1.VGPRS: `ceil(max(v,1) / g) - 1` with granule g = 4, except 8 for wave32 on
//!   GFX10+.
//! - RSRC1.SGPRS: GFX9 `ceil(max(s,1) / 8) - 1` (what llc and RADV write); reserved and
//!   written 0 on GFX10+ (pal-abi.md §7 pitfall 3; llc-19 writes a non-zero value there).
//! - RSRC1.WGP_MODE (bit 29) / MEM_ORDERED (bit 30) / FWD_PROGRESS (bit 31) exist on GFX10+
//!   only; asking for them on GFX9 is an error.
//! - RSRC2.LDS_SIZE counts 512-byte granules (128 dwords) on all three targets.
//! - COMPUTE_DISPATCH_INITIATOR.CS_W32_EN (bit 15) selects wave32 on GFX10+.
//! - COMPUTE_PGM_RSRC3 exists on GFX10+; INST_PREF_SIZE (bits 9:4, 128-byte units) is GFX11
//!   only.
//! - `HwStage`: a hardware stage and its register numbers (USER_DATA, RSRC1/2).

use super::error::{Error, Result};
use crate::isa::{Gen, Target, Wave};

/// COMPUTE_DISPATCH_INITIATOR.
pub const COMPUTE_DISPATCH_INITIATOR: u32 = 0x2e00;
/// COMPUTE_NUM_THREAD_X (Y and Z follow).
pub const COMPUTE_NUM_THREAD_X: u32 = 0x2e07;
/// COMPUTE_NUM_THREAD_Y.
pub const COMPUTE_NUM_THREAD_Y: u32 = 0x2e08;
/// COMPUTE_NUM_THREAD_Z.
pub const COMPUTE_NUM_THREAD_Z: u32 = 0x2e09;
/// COMPUTE_PGM_RSRC1.
pub const COMPUTE_PGM_RSRC1: u32 = 0x2e12;
/// COMPUTE_PGM_RSRC2.
pub const COMPUTE_PGM_RSRC2: u32 = 0x2e13;
/// COMPUTE_TMPRING_SIZE (not written by us; PAL derives it from `.scratch_memory_size`).
pub const COMPUTE_TMPRING_SIZE: u32 = 0x2e18;
/// COMPUTE_PGM_RSRC3 (GFX10+).
pub const COMPUTE_PGM_RSRC3: u32 = 0x2e28;
/// COMPUTE_USER_DATA_0 (16 registers follow).
pub const COMPUTE_USER_DATA_0: u32 = 0x2e40;
/// Number of COMPUTE_USER_DATA registers (compute has 16 user SGPRs).
pub const COMPUTE_USER_DATA_COUNT: u32 = 16;

/// CS_W32_EN in COMPUTE_DISPATCH_INITIATOR.
pub const DISPATCH_INITIATOR_CS_W32_EN: u32 = 1 << 15;

/// Maximum LDS a compute workgroup may allocate (64 KiB).
pub const MAX_LDS_BYTES: u32 = 65536;
/// LDS allocation granule encoded in RSRC2.LDS_SIZE.
pub const LDS_GRANULE_BYTES: u32 = 512;

/// Name of a compute register, for printing.
pub fn register_name(reg: u32) -> Option<String> {
    Some(match reg {
        COMPUTE_DISPATCH_INITIATOR => "COMPUTE_DISPATCH_INITIATOR".into(),
        COMPUTE_NUM_THREAD_X => "COMPUTE_NUM_THREAD_X".into(),
        COMPUTE_NUM_THREAD_Y => "COMPUTE_NUM_THREAD_Y".into(),
        COMPUTE_NUM_THREAD_Z => "COMPUTE_NUM_THREAD_Z".into(),
        COMPUTE_PGM_RSRC1 => "COMPUTE_PGM_RSRC1".into(),
        COMPUTE_PGM_RSRC2 => "COMPUTE_PGM_RSRC2".into(),
        COMPUTE_TMPRING_SIZE => "COMPUTE_TMPRING_SIZE".into(),
        COMPUTE_PGM_RSRC3 => "COMPUTE_PGM_RSRC3".into(),
        r if (COMPUTE_USER_DATA_0..COMPUTE_USER_DATA_0 + 32).contains(&r) => {
            format!("COMPUTE_USER_DATA_{}", r - COMPUTE_USER_DATA_0)
        }
        _ => return None,
    })
}

/// The FLOAT_MODE byte of RSRC1 (pal-abi.md §3.1): round modes in bits 3:0, denorm modes
/// in bits 7:4.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct FloatMode(pub u8);

impl FloatMode {
    /// Round to nearest even, keep f32 and f64/f16 denormals (llc's default, 0xF0).
    pub const IEEE_DENORMS: FloatMode = FloatMode(0xf0);
    /// Round to nearest even, flush f32 denormals, keep f64/f16 ones (LLPC's usual, 0xC0).
    pub const FLUSH_F32_DENORMS: FloatMode = FloatMode(0xc0);

    /// Builds the byte from its four 2-bit fields. Denorm modes: 0 flush in and out,
    /// 1 flush out, 2 flush in, 3 keep; round modes: 0 nearest even, 1 +inf, 2 -inf, 3 zero.
    pub fn new(round_f32: u8, round_f64_f16: u8, denorm_f32: u8, denorm_f64_f16: u8) -> Self {
        FloatMode(
            (round_f32 & 3)
                | (round_f64_f16 & 3) << 2
                | (denorm_f32 & 3) << 4
                | (denorm_f64_f16 & 3) << 6,
        )
    }
}

/// The fields of COMPUTE_PGM_RSRC1 as numbers of registers and flags.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rsrc1 {
    /// VGPRs used (1..=256).
    pub vgprs: u32,
    /// SGPRs used including VCC (and XNACK_MASK on xnack targets); encoded on GFX9 only.
    pub sgprs: u32,
    /// FLOAT_MODE byte.
    pub float_mode: FloatMode,
    /// DX10_CLAMP (bit 21): clamp NaN to 0 in clamped VALU results. llc sets it.
    pub dx10_clamp: bool,
    /// IEEE_MODE (bit 23).
    pub ieee_mode: bool,
    /// DEBUG_MODE (bit 22).
    pub debug_mode: bool,
    /// FP16_OVFL (bit 26).
    pub fp16_overflow: bool,
    /// WGP_MODE (bit 29, GFX10+): workgroup spread over both CUs of a WGP.
    pub wgp_mode: bool,
    /// MEM_ORDERED (bit 30, GFX10+).
    pub mem_ordered: bool,
    /// FWD_PROGRESS (bit 31, GFX10+).
    pub fwd_progress: bool,
}

fn check_wave(t: Target) -> Result<()> {
    t.check_wave()
        .map(|_| ())
        .map_err(|e| Error::invalid("wave size", e.to_string()))
}

impl Rsrc1 {
    /// The defaults llc uses for a compute shader on `gen` (DX10_CLAMP on, IEEE off,
    /// WGP_MODE and MEM_ORDERED on GFX10+), with the given counts and float mode.
    pub fn new(gen: Gen, vgprs: u32, sgprs: u32, float_mode: FloatMode) -> Rsrc1 {
        let g10 = gen.is_gfx10_plus();
        Rsrc1 {
            vgprs,
            sgprs,
            float_mode,
            dx10_clamp: true,
            ieee_mode: false,
            debug_mode: false,
            fp16_overflow: false,
            wgp_mode: g10,
            mem_ordered: g10,
            fwd_progress: false,
        }
    }

    /// Packs the register value.
    pub fn pack(&self, t: Target) -> Result<u32> {
        check_wave(t)?;
        if self.vgprs > 256 {
            return Err(Error::invalid(
                "RSRC1 VGPR count",
                format!("{} VGPRs, at most 256 are addressable", self.vgprs),
            ));
        }
        if self.sgprs > 128 {
            return Err(Error::invalid(
                "RSRC1 SGPR count",
                format!("{} SGPRs, at most 128 can be encoded", self.sgprs),
            ));
        }
        let g10 = t.gen.is_gfx10_plus();
        if !g10 && (self.wgp_mode || self.mem_ordered || self.fwd_progress) {
            return Err(Error::invalid(
                "RSRC1",
                format!(
                    "WGP_MODE, MEM_ORDERED and FWD_PROGRESS do not exist on {}",
                    t.gen
                ),
            ));
        }
        let granule = t.vgpr_granule();
        let vgpr_blocks = self.vgprs.max(1).div_ceil(granule) - 1;
        let sgpr_blocks = if g10 {
            0
        } else {
            self.sgprs.max(1).div_ceil(8) - 1
        };
        Ok(vgpr_blocks
            | sgpr_blocks << 6
            | (self.float_mode.0 as u32) << 12
            | (self.dx10_clamp as u32) << 21
            | (self.debug_mode as u32) << 22
            | (self.ieee_mode as u32) << 23
            | (self.fp16_overflow as u32) << 26
            | (self.wgp_mode as u32) << 29
            | (self.mem_ordered as u32) << 30
            | (self.fwd_progress as u32) << 31)
    }

    /// Decodes a register value. Counts come back as the allocation (granule multiples);
    /// `sgprs` is 0 on GFX10+ where the field is not used.
    pub fn unpack(value: u32, t: Target) -> Rsrc1 {
        let granule = t.vgpr_granule();
        let g10 = t.gen.is_gfx10_plus();
        Rsrc1 {
            vgprs: ((value & 0x3f) + 1) * granule,
            sgprs: if g10 { 0 } else { ((value >> 6 & 0xf) + 1) * 8 },
            float_mode: FloatMode((value >> 12) as u8),
            dx10_clamp: value >> 21 & 1 != 0,
            debug_mode: value >> 22 & 1 != 0,
            ieee_mode: value >> 23 & 1 != 0,
            fp16_overflow: value >> 26 & 1 != 0,
            wgp_mode: g10 && value >> 29 & 1 != 0,
            mem_ordered: g10 && value >> 30 & 1 != 0,
            fwd_progress: g10 && value >> 31 & 1 != 0,
        }
    }
}

/// The fields of COMPUTE_PGM_RSRC2.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Rsrc2 {
    /// SCRATCH_EN (bit 0).
    pub scratch_en: bool,
    /// USER_SGPR (bits 5:1), at most 16.
    pub user_sgprs: u32,
    /// TRAP_PRESENT (bit 6).
    pub trap_present: bool,
    /// TGID_X/Y/Z_EN (bits 7..9): the workgroup id SGPRs.
    pub tgid_en: [bool; 3],
    /// TG_SIZE_EN (bit 10): the workgroup-info SGPR.
    pub tg_size_en: bool,
    /// TIDIG_COMP_CNT (bits 12:11): 0 = X, 1 = XY, 2 = XYZ local ids.
    pub tidig_comp_cnt: u32,
    /// EXCP_EN_MSB (bits 14:13).
    pub excp_en_msb: u32,
    /// LDS bytes per workgroup; packed as 512-byte granules in bits 23:15.
    pub lds_bytes: u32,
    /// EXCP_EN (bits 30:24).
    pub excp_en: u32,
}

impl Rsrc2 {
    /// Packs the register value.
    pub fn pack(&self) -> Result<u32> {
        if self.user_sgprs > COMPUTE_USER_DATA_COUNT {
            return Err(Error::invalid(
                "RSRC2 USER_SGPR",
                format!("{} user SGPRs, compute has 16", self.user_sgprs),
            ));
        }
        if self.tidig_comp_cnt > 2 {
            return Err(Error::invalid(
                "RSRC2 TIDIG_COMP_CNT",
                format!("{} (must be 0..=2)", self.tidig_comp_cnt),
            ));
        }
        if self.lds_bytes > MAX_LDS_BYTES {
            return Err(Error::invalid(
                "RSRC2 LDS_SIZE",
                format!("{} bytes of LDS, at most {MAX_LDS_BYTES}", self.lds_bytes),
            ));
        }
        if self.excp_en_msb > 3 || self.excp_en > 0x7f {
            return Err(Error::invalid("RSRC2 EXCP_EN", "exception mask too wide"));
        }
        Ok(self.scratch_en as u32
            | self.user_sgprs << 1
            | (self.trap_present as u32) << 6
            | (self.tgid_en[0] as u32) << 7
            | (self.tgid_en[1] as u32) << 8
            | (self.tgid_en[2] as u32) << 9
            | (self.tg_size_en as u32) << 10
            | self.tidig_comp_cnt << 11
            | self.excp_en_msb << 13
            | lds_granules(self.lds_bytes) << 15
            | self.excp_en << 24)
    }

    /// Decodes a register value; `lds_bytes` comes back as whole granules.
    pub fn unpack(value: u32) -> Rsrc2 {
        Rsrc2 {
            scratch_en: value & 1 != 0,
            user_sgprs: value >> 1 & 0x1f,
            trap_present: value >> 6 & 1 != 0,
            tgid_en: [
                value >> 7 & 1 != 0,
                value >> 8 & 1 != 0,
                value >> 9 & 1 != 0,
            ],
            tg_size_en: value >> 10 & 1 != 0,
            tidig_comp_cnt: value >> 11 & 3,
            excp_en_msb: value >> 13 & 3,
            lds_bytes: (value >> 15 & 0x1ff) * LDS_GRANULE_BYTES,
            excp_en: value >> 24 & 0x7f,
        }
    }
}

/// LDS bytes to RSRC2.LDS_SIZE granules.
pub fn lds_granules(bytes: u32) -> u32 {
    bytes.div_ceil(LDS_GRANULE_BYTES)
}

/// The fields of COMPUTE_PGM_RSRC3 (GFX10+).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Rsrc3 {
    /// SHARED_VGPR_COUNT (bits 3:0), wave64 only.
    pub shared_vgpr_count: u32,
    /// INST_PREF_SIZE (bits 9:4), GFX11 only, in 128-byte units.
    pub inst_pref_size: u32,
    /// IMAGE_OP (bit 31, GFX11).
    pub image_op: bool,
}

impl Rsrc3 {
    /// Packs the register value.
    pub fn pack(&self, t: Target) -> Result<u32> {
        check_wave(t)?;
        if !t.info().rsrc3 {
            return Err(Error::invalid(
                "COMPUTE_PGM_RSRC3",
                format!("does not exist on {}", t.gen),
            ));
        }
        if self.shared_vgpr_count > 15 || (self.shared_vgpr_count != 0 && t.wave == Wave::W32) {
            return Err(Error::invalid(
                "RSRC3 SHARED_VGPR_COUNT",
                "must be 0..=15, and 0 for wave32",
            ));
        }
        let g11 = t.info().inst_pref;
        if self.inst_pref_size > 63 || (!g11 && self.inst_pref_size != 0) {
            return Err(Error::invalid(
                "RSRC3 INST_PREF_SIZE",
                "must be 0..=63, and 0 before GFX11",
            ));
        }
        if self.image_op && !g11 {
            return Err(Error::invalid("RSRC3 IMAGE_OP", "GFX11 only"));
        }
        Ok(self.shared_vgpr_count | self.inst_pref_size << 4 | (self.image_op as u32) << 31)
    }

    /// Decodes a register value.
    pub fn unpack(value: u32) -> Rsrc3 {
        Rsrc3 {
            shared_vgpr_count: value & 0xf,
            inst_pref_size: value >> 4 & 0x3f,
            image_op: value >> 31 != 0,
        }
    }
}

/// COMPUTE_DISPATCH_INITIATOR bits the shader dictates: CS_W32_EN for wave32 on GFX10+.
/// Returns `None` when the register need not be written (wave64).
pub fn dispatch_initiator(t: Target) -> Result<Option<u32>> {
    check_wave(t)?;
    Ok(match t.wave {
        Wave::W32 => Some(DISPATCH_INITIATOR_CS_W32_EN),
        Wave::W64 => None,
    })
}

/// COMPUTE_NUM_THREAD_X/Y/Z values for a workgroup size (NUM_THREAD_FULL in bits 15:0).
pub fn num_threads(dims: [u32; 3]) -> Result<[(u32, u32); 3]> {
    if !crate::ir::valid_workgroup_size(dims) {
        return Err(Error::invalid(
            "workgroup size",
            format!("{dims:?}: each dimension must be >= 1 and the product <= 1024"),
        ));
    }
    Ok([
        (COMPUTE_NUM_THREAD_X, dims[0]),
        (COMPUTE_NUM_THREAD_Y, dims[1]),
        (COMPUTE_NUM_THREAD_Z, dims[2]),
    ])
}

/// What PAL loads into one user-data SGPR (pal-abi.md §2.6): the value of a
/// COMPUTE_USER_DATA_i register in PAL 2.x `.registers`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum UserData {
    /// User-data entry N, set by the driver (`CmdSetUserData`), 0..=127.
    Entry(u32),
    /// Low 32 bits of the global internal table (must be user SGPR 0).
    GlobalTable,
    /// Low 32 bits of the per-shader internal table.
    PerShaderTable,
    /// Spill table.
    SpillTable,
    /// Pointer to the dispatch dimensions (two SGPRs, low then high).
    Workgroup,
    /// Any other PAL-defined 0x1000000x value.
    Special(u32),
    /// Not mapped (0xFFFFFFFF).
    Unused,
}

const PIPELINE_METADATA_BASE: u32 = 0x1000_0000;

impl UserData {
    /// The register value.
    pub fn encode(self) -> u32 {
        match self {
            UserData::Entry(n) => n,
            UserData::GlobalTable => PIPELINE_METADATA_BASE,
            UserData::PerShaderTable => PIPELINE_METADATA_BASE + 1,
            UserData::SpillTable => PIPELINE_METADATA_BASE + 2,
            UserData::Workgroup => PIPELINE_METADATA_BASE + 6,
            UserData::Special(v) => v,
            UserData::Unused => u32::MAX,
        }
    }

    /// Decodes a register value.
    pub fn decode(v: u32) -> Option<UserData> {
        Some(match v {
            0..=127 => UserData::Entry(v),
            0x1000_0000 => UserData::GlobalTable,
            0x1000_0001 => UserData::PerShaderTable,
            0x1000_0002 => UserData::SpillTable,
            0x1000_0006 => UserData::Workgroup,
            0x1000_0003..=0x1000_00ff => UserData::Special(v),
            u32::MAX => UserData::Unused,
            _ => return None,
        })
    }

    fn check(self) -> Result<()> {
        match self {
            UserData::Entry(n) if n > 127 => Err(Error::invalid(
                "user-data entry",
                format!("{n} (entries are 0..=127)"),
            )),
            UserData::Special(v) if UserData::decode(v) != Some(UserData::Special(v)) => {
                Err(Error::invalid(
                    "user-data value",
                    format!("{v:#x} is not a PAL special value"),
                ))
            }
            _ => Ok(()),
        }
    }
}

/// COMPUTE_USER_DATA_i register/value pairs for a user-SGPR mapping (index = user SGPR).
/// The global table, when present, must be in user SGPR 0.
pub fn user_data_registers(map: &[UserData]) -> Result<Vec<(u32, u32)>> {
    if map.len() > COMPUTE_USER_DATA_COUNT as usize {
        return Err(Error::invalid(
            "user-data map",
            format!("{} user SGPRs, compute has 16", map.len()),
        ));
    }
    let mut out = Vec::with_capacity(map.len());
    for (i, ud) in map.iter().enumerate() {
        ud.check()?;
        if *ud == UserData::GlobalTable && i != 0 {
            return Err(Error::invalid(
                "user-data map",
                format!("the global table is in user SGPR {i}; PAL requires user SGPR 0"),
            ));
        }
        out.push((COMPUTE_USER_DATA_0 + i as u32, ud.encode()));
    }
    Ok(out)
}

/// A hardware shader stage.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum HwStage {
    /// Local (LS).
    Ls,
    /// Hull (HS).
    Hs,
    /// Export (ES).
    Es,
    /// Geometry (GS, also NGG).
    Gs,
    /// Vertex (VS).
    Vs,
    /// Pixel (PS).
    Ps,
    /// Compute (CS).
    Cs,
}

impl HwStage {
    /// Every stage.
    pub const ALL: [HwStage; 7] = [
        HwStage::Ls,
        HwStage::Hs,
        HwStage::Es,
        HwStage::Gs,
        HwStage::Vs,
        HwStage::Ps,
        HwStage::Cs,
    ];

    /// Short name: `cs`, `ps`, ...
    pub fn short(self) -> &'static str {
        match self {
            HwStage::Ls => "ls",
            HwStage::Hs => "hs",
            HwStage::Es => "es",
            HwStage::Gs => "gs",
            HwStage::Vs => "vs",
            HwStage::Ps => "ps",
            HwStage::Cs => "cs",
        }
    }

    /// Metadata key: `.cs`, ...
    pub fn key(self) -> String {
        self.key_str().to_string()
    }

    /// [`HwStage::key`] without allocating.
    pub fn key_str(self) -> &'static str {
        match self {
            HwStage::Ls => ".ls",
            HwStage::Hs => ".hs",
            HwStage::Es => ".es",
            HwStage::Gs => ".gs",
            HwStage::Vs => ".vs",
            HwStage::Ps => ".ps",
            HwStage::Cs => ".cs",
        }
    }

    /// From a metadata key.
    pub fn from_key(key: &str) -> Option<HwStage> {
        HwStage::ALL.into_iter().find(|s| s.key_str() == key)
    }

    /// Entry symbol PAL looks up: `_amdgpu_cs_main`, ...
    pub fn entry_symbol(self) -> String {
        self.entry_symbol_str().to_string()
    }

    /// [`HwStage::entry_symbol`] without allocating.
    pub fn entry_symbol_str(self) -> &'static str {
        match self {
            HwStage::Ls => "_amdgpu_ls_main",
            HwStage::Hs => "_amdgpu_hs_main",
            HwStage::Es => "_amdgpu_es_main",
            HwStage::Gs => "_amdgpu_gs_main",
            HwStage::Vs => "_amdgpu_vs_main",
            HwStage::Ps => "_amdgpu_ps_main",
            HwStage::Cs => "_amdgpu_cs_main",
        }
    }

    /// First USER_DATA register of the stage (pal-abi.md §2.5).
    pub fn user_data_base(self) -> u32 {
        match self {
            HwStage::Cs => COMPUTE_USER_DATA_0,
            HwStage::Ps => 0x2c0c,
            HwStage::Vs => 0x2c4c,
            HwStage::Gs => 0x2c8c,
            HwStage::Es => 0x2ccc,
            HwStage::Hs => 0x2d0c,
            HwStage::Ls => 0x2d4c,
        }
    }

    /// Number of USER_DATA registers in the name table (16 for compute, 32 for graphics).
    pub fn user_data_count(self) -> u32 {
        match self {
            HwStage::Cs => COMPUTE_USER_DATA_COUNT,
            _ => 32,
        }
    }

    /// RSRC1 register of the stage.
    pub fn rsrc1(self) -> u32 {
        match self {
            HwStage::Cs => COMPUTE_PGM_RSRC1,
            _ => self.user_data_base() - 2,
        }
    }

    /// RSRC2 register of the stage.
    pub fn rsrc2(self) -> u32 {
        match self {
            HwStage::Cs => COMPUTE_PGM_RSRC2,
            _ => self.user_data_base() - 1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn static_stage_names_are_the_formatted_ones() {
        for s in HwStage::ALL {
            assert_eq!(s.key_str(), format!(".{}", s.short()));
            assert_eq!(s.entry_symbol_str(), format!("_amdgpu_{}_main", s.short()));
            assert_eq!(HwStage::from_key(s.key_str()), Some(s));
        }
    }

    #[test]
    fn rsrc1_matches_llc_samples() {
        // gfx900 sample (pal-abi.md §2.7): 5 VGPRs, 15 SGPRs, float mode 0xF0 -> 0x002F0041.
        let r = Rsrc1::new(Gen::Gfx9, 5, 15, FloatMode::IEEE_DENORMS);
        assert_eq!(r.pack(Target::new(Gen::Gfx9)).unwrap(), 0x002F_0041);
        // gfx1030 wave64: VGPRS switches to 4-granules -> 0x602F0001 (plus llc's SGPRS=1).
        let r = Rsrc1::new(Gen::Gfx10, 7, 13, FloatMode::IEEE_DENORMS);
        let w64 = Target::with_wave(Gen::Gfx10, Wave::W64).unwrap();
        assert_eq!(r.pack(w64).unwrap(), 0x602F_0001);
    }

    #[test]
    fn rsrc2_lds_granules() {
        // cs_lds: 1000 bytes -> 2 granules -> 0x10000.
        let r = Rsrc2 {
            lds_bytes: 1000,
            ..Default::default()
        };
        assert_eq!(r.pack().unwrap(), 0x10000);
        let r = Rsrc2 {
            user_sgprs: 6,
            tgid_en: [true, true, false],
            ..Default::default()
        };
        assert_eq!(r.pack().unwrap(), 0x18c);
    }
}
