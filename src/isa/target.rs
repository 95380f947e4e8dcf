//! Generations, targets and the per-generation fact table.
//!
//! There is one target type for the whole compiler, `Target { gen, wave }`: every layer —
//! instruction selection, register allocation, emission, the binary layer, parts, link,
//! the emulator and the reference drivers — takes it (or just its `Gen` where the wave size
//! cannot matter, e.g. an ELF header). A `Gen` selects the ISA tables and bit layouts; the
//! wave size changes lane-mask operand sizes (`s0` vs `s[0:1]`), how `vcc`/`exec` print and
//! the VGPR allocation granule. The default wave size is LLVM's: 64 on GFX9 (the only one
//! it has), 32 on GFX10+.
//!
//! Facts about a generation that are numbers rather than instruction encodings (the SGPR
//! budget, VGPR granules, the constant-bus limit, the FLAT offset range, the instruction
//! cache line and the `s_code_end` padding, the ELF machine number, occupancy limits) live
//! once, in the `const` [`GenInfo`] table read through [`Gen::info`]. Instruction facts
//! live in `isa_tables/`.
//!
//! Invariant: a `Target` built by [`Target::new`], [`Target::with_wave`] or parsing has a
//! wave size its generation supports; the fields are public, so layers that check
//! untrusted input (the binary layer's register packers) still call
//! [`Target::check_wave`].

use std::fmt;
use std::str::FromStr;

/// An ISA generation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Gen {
    /// GFX9, gfx900 (Vega).
    Gfx9,
    /// GFX10.3, gfx1030 (RDNA2).
    Gfx10,
    /// GFX11, gfx1100 (RDNA3).
    Gfx11,
}

/// The numeric facts of one generation (see the module doc). One `const` per generation;
/// every layer reads these instead of spelling the numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GenInfo {
    /// The LLVM processor name (`-mcpu`, `--target`, the ISA-name note).
    pub mcpu: &'static str,
    /// The generation's major number: 9, 10 or 11.
    pub major: u32,
    /// `EF_AMDGPU_MACH_*` in the ELF header's `e_flags`.
    pub elf_mach: u32,
    /// The feature bits LLVM writes into `e_flags` for `amdpal` by default (xnack "any"
    /// on gfx900, pal-abi.md §1.2).
    pub elf_features: u32,
    /// Whether wave32 exists (GFX10+).
    pub wave32: bool,
    /// SGPRs a shader may allocate, below VCC and the generation's special registers
    /// (GFX9 keeps FLAT_SCRATCH and XNACK_MASK at s102..s105).
    pub sgprs: u16,
    /// VGPRs a lane may address.
    pub vgprs: u16,
    /// VGPR allocation granule (and RSRC1.VGPRS encoding unit) for wave32 and wave64.
    pub vgpr_granule: [u32; 2],
    /// VGPRs per lane in a SIMD's register file for wave64 waves (wave32 has twice as
    /// many); with `max_waves` and `sgpr_file` it bounds occupancy.
    pub vgpr_file_w64: u32,
    /// SGPRs in a SIMD's register file when SGPRs limit occupancy (GFX9; `None` on GFX10+,
    /// where every wave gets its full SGPR set).
    pub sgpr_file: Option<u32>,
    /// Wave slots per SIMD.
    pub max_waves: u32,
    /// Distinct scalar values (SGPRs, literal) one VALU instruction may read.
    pub constant_bus: usize,
    /// Signed immediate offset range of GLOBAL and SCRATCH instructions (inclusive).
    pub flat_offset: (i32, i32),
    /// Largest unsigned immediate offset of MUBUF/MTBUF instructions (12 bits).
    pub mubuf_offset_max: u32,
    /// Largest immediate `offset:` of one-address DS instructions (16 bits).
    pub ds_offset_max: u32,
    /// Instruction-cache line in bytes: the unit of `s_code_end` padding and of GFX11's
    /// RSRC3.INST_PREF_SIZE.
    pub icache_line: u32,
    /// Whether `.text` ends in `s_code_end` padding (GFX10+; see [`GenInfo::code_end_padding`]).
    pub code_end: bool,
    /// Whether COMPUTE_PGM_RSRC3 exists (GFX10+).
    pub rsrc3: bool,
    /// Whether RSRC3.INST_PREF_SIZE exists (GFX11).
    pub inst_pref: bool,
}

const GFX9: GenInfo = GenInfo {
    mcpu: "gfx900",
    major: 9,
    elf_mach: 0x2c,
    elf_features: 0x100,
    wave32: false,
    sgprs: 102,
    vgprs: 256,
    vgpr_granule: [4, 4],
    vgpr_file_w64: 256,
    sgpr_file: Some(800),
    max_waves: 10,
    constant_bus: 1,
    flat_offset: (-4096, 4095),
    mubuf_offset_max: 4095,
    ds_offset_max: 0xffff,
    icache_line: 64,
    code_end: false,
    rsrc3: false,
    inst_pref: false,
};

const GFX10: GenInfo = GenInfo {
    mcpu: "gfx1030",
    major: 10,
    elf_mach: 0x36,
    elf_features: 0,
    wave32: true,
    sgprs: 106,
    vgprs: 256,
    vgpr_granule: [8, 4],
    vgpr_file_w64: 512,
    sgpr_file: None,
    max_waves: 16,
    constant_bus: 2,
    flat_offset: (-2048, 2047),
    mubuf_offset_max: 4095,
    ds_offset_max: 0xffff,
    icache_line: 64,
    code_end: true,
    rsrc3: true,
    inst_pref: false,
};

const GFX11: GenInfo = GenInfo {
    mcpu: "gfx1100",
    major: 11,
    elf_mach: 0x41,
    elf_features: 0,
    wave32: true,
    sgprs: 106,
    vgprs: 256,
    vgpr_granule: [8, 4],
    vgpr_file_w64: 768,
    sgpr_file: None,
    max_waves: 16,
    constant_bus: 2,
    flat_offset: (-4096, 4095),
    mubuf_offset_max: 4095,
    ds_offset_max: 0xffff,
    icache_line: 128,
    code_end: true,
    rsrc3: true,
    inst_pref: true,
};

/// `EF_AMDGPU_MACH` mask (low byte of `e_flags`).
pub const EF_AMDGPU_MACH: u32 = 0xff;

impl GenInfo {
    /// Lines of `s_code_end` after the one the code ends in (LLVM's rule, pal-abi.md §6).
    pub const CODE_END_EXTRA_LINES: usize = 3;

    /// Bytes of `s_code_end` padding after `code_bytes` bytes of code: up to the next
    /// instruction-cache line, then [`Self::CODE_END_EXTRA_LINES`] more lines; 0 where
    /// the generation pads nothing. The only statement of the rule (emit and link use it).
    pub fn code_end_padding(&self, code_bytes: usize) -> usize {
        if !self.code_end {
            return 0;
        }
        let line = self.icache_line as usize;
        code_bytes.next_multiple_of(line) - code_bytes + Self::CODE_END_EXTRA_LINES * line
    }

    /// GFX11 RSRC3.INST_PREF_SIZE for `code_bytes` of code: instruction-cache lines,
    /// capped at the field's 63; 0 where the field does not exist.
    pub fn inst_pref_size(&self, code_bytes: u64) -> u32 {
        if self.inst_pref {
            code_bytes.div_ceil(self.icache_line as u64).min(63) as u32
        } else {
            0
        }
    }
}

impl Gen {
    pub const ALL: [Gen; 3] = [Gen::Gfx9, Gen::Gfx10, Gen::Gfx11];

    /// The generation's fact table.
    pub const fn info(self) -> &'static GenInfo {
        match self {
            Gen::Gfx9 => &GFX9,
            Gen::Gfx10 => &GFX10,
            Gen::Gfx11 => &GFX11,
        }
    }

    /// The LLVM processor name used by our oracle and by `--target`.
    pub fn mcpu(self) -> &'static str {
        self.info().mcpu
    }

    /// GFX10 and later.
    pub fn is_gfx10_plus(self) -> bool {
        self >= Gen::Gfx10
    }

    /// The `e_flags` LLVM writes for `amdpal` with default features.
    pub fn e_flags(self) -> u32 {
        self.info().elf_mach | self.info().elf_features
    }

    /// Recognises a generation from `e_flags` (feature bits ignored).
    pub fn from_e_flags(flags: u32) -> Option<Gen> {
        Gen::ALL
            .into_iter()
            .find(|g| g.info().elf_mach == flags & EF_AMDGPU_MACH)
    }

    /// Descriptor of the `NT_AMD_HSA_ISA_NAME` note, e.g. `amdgcn-unknown-amdpal--gfx1030`.
    pub fn isa_name(self) -> String {
        format!("amdgcn-unknown-amdpal--{}", self.mcpu())
    }

    /// Whether `wave` is supported (wave64 everywhere, wave32 on GFX10+).
    pub fn supports(self, wave: Wave) -> bool {
        wave == Wave::W64 || self.info().wave32
    }

    /// LLVM's (and RADV's compute) default wave size: wave64 on GFX9, wave32 on GFX10+.
    pub fn default_wave(self) -> Wave {
        if self.info().wave32 {
            Wave::W32
        } else {
            Wave::W64
        }
    }
}

impl fmt::Display for Gen {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(self.mcpu())
    }
}

/// Wave size in lanes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Wave {
    W32,
    W64,
}

impl Wave {
    /// Dwords in a lane mask.
    pub fn mask_dwords(self) -> u8 {
        match self {
            Wave::W32 => 1,
            Wave::W64 => 2,
        }
    }
    pub fn lanes(self) -> u32 {
        match self {
            Wave::W32 => 32,
            Wave::W64 => 64,
        }
    }
    /// From a lane count (32 or 64).
    pub fn from_lanes(lanes: u64) -> Option<Wave> {
        match lanes {
            32 => Some(Wave::W32),
            64 => Some(Wave::W64),
            _ => None,
        }
    }
}

impl fmt::Display for Wave {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "wave{}", self.lanes())
    }
}

/// A generation plus a wave size.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Target {
    pub gen: Gen,
    pub wave: Wave,
}

/// A target name or wave size that does not name a target.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TargetError {
    /// Not `gfx900`, `gfx1030` or `gfx1100` (or their `gfx9`/`gfx10`/`gfx11` short forms).
    UnknownName(String),
    /// The generation has no such wave size (wave32 on GFX9).
    UnsupportedWave(Gen, Wave),
}

impl fmt::Display for TargetError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            TargetError::UnknownName(s) => write!(
                f,
                "unknown target `{s}` (expected gfx900, gfx1030 or gfx1100)"
            ),
            TargetError::UnsupportedWave(g, w) => write!(f, "{g} has no {w}"),
        }
    }
}

impl std::error::Error for TargetError {}

impl From<TargetError> for String {
    fn from(e: TargetError) -> String {
        e.to_string()
    }
}

impl Target {
    /// The generation's default wave size ([`Gen::default_wave`]).
    pub fn new(gen: Gen) -> Target {
        Target {
            gen,
            wave: gen.default_wave(),
        }
    }

    /// Explicit wave size; GFX9 only has wave64.
    pub fn with_wave(gen: Gen, wave: Wave) -> Result<Target, TargetError> {
        Target { gen, wave }.check_wave()
    }

    /// `self`, or an error when its generation has no such wave size.
    pub fn check_wave(self) -> Result<Target, TargetError> {
        if self.gen.supports(self.wave) {
            Ok(self)
        } else {
            Err(TargetError::UnsupportedWave(self.gen, self.wave))
        }
    }

    /// The generation's fact table.
    pub fn info(self) -> &'static GenInfo {
        self.gen.info()
    }

    /// The LLVM processor name.
    pub fn mcpu(self) -> &'static str {
        self.gen.mcpu()
    }

    /// VGPR allocation granule (RSRC1.VGPRS unit) for this wave size.
    pub fn vgpr_granule(self) -> u32 {
        self.info().vgpr_granule[(self.wave == Wave::W64) as usize]
    }

    /// Waves per SIMD the register use allows (RADV's occupancy formula: the register
    /// file divided by the allocation rounded to its granule, capped by the wave slots;
    /// on GFX9 the SGPR file counts too, VCC included, in 16-register granules).
    pub fn waves_per_simd(self, sgprs: u32, vgprs: u32) -> u32 {
        let info = self.info();
        let vgpr_file = info.vgpr_file_w64 * if self.wave == Wave::W32 { 2 } else { 1 };
        let by_vgprs = vgpr_file / vgprs.max(1).next_multiple_of(self.vgpr_granule());
        let by_sgprs = info.sgpr_file.map_or(u32::MAX, |file| {
            file / (sgprs + 2).max(1).next_multiple_of(16)
        });
        info.max_waves.min(by_vgprs).min(by_sgprs)
    }
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{} {}", self.gen, self.wave)
    }
}

impl FromStr for Gen {
    type Err = TargetError;
    fn from_str(s: &str) -> Result<Gen, TargetError> {
        match s {
            "gfx900" | "gfx9" => Ok(Gen::Gfx9),
            "gfx1030" | "gfx10" => Ok(Gen::Gfx10),
            "gfx1100" | "gfx11" => Ok(Gen::Gfx11),
            _ => Err(TargetError::UnknownName(s.to_string())),
        }
    }
}

/// `gfx1100` (the generation's default wave size) or `gfx1100:w64` / `gfx1030:w32`.
impl FromStr for Target {
    type Err = TargetError;
    fn from_str(s: &str) -> Result<Target, TargetError> {
        match s.split_once(':') {
            None => Ok(Target::new(s.parse()?)),
            Some((g, w)) => {
                let wave = match w {
                    "w32" | "wave32" | "32" => Wave::W32,
                    "w64" | "wave64" | "64" => Wave::W64,
                    _ => return Err(TargetError::UnknownName(s.to_string())),
                };
                Target::with_wave(g.parse()?, wave)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_parse_to_targets_with_the_default_wave() {
        assert_eq!("gfx900".parse(), Ok(Target::new(Gen::Gfx9)));
        assert_eq!("gfx1100".parse::<Target>().map(|t| t.wave), Ok(Wave::W32));
        assert_eq!(
            "gfx1030:w64".parse(),
            Ok(Target {
                gen: Gen::Gfx10,
                wave: Wave::W64
            })
        );
        assert_eq!(
            "gfx900:w32".parse::<Target>(),
            Err(TargetError::UnsupportedWave(Gen::Gfx9, Wave::W32))
        );
        assert!("gfx1200".parse::<Target>().is_err());
        for g in Gen::ALL {
            assert_eq!(g.mcpu().parse(), Ok(g));
            assert_eq!(Gen::from_e_flags(g.e_flags()), Some(g));
        }
    }

    #[test]
    fn code_end_padding_fills_the_line_then_three_more() {
        // GFX10: 64-byte lines; 100 bytes of code -> 28 to the line + 192
        assert_eq!(Gen::Gfx10.info().code_end_padding(100), 28 + 192);
        // GFX11: 128-byte lines; code ending on a line boundary still gets three lines
        assert_eq!(Gen::Gfx11.info().code_end_padding(256), 384);
        assert_eq!(Gen::Gfx9.info().code_end_padding(100), 0);
    }

    #[test]
    fn occupancy_follows_the_register_files() {
        let t = |g, w| Target { gen: g, wave: w };
        assert_eq!(t(Gen::Gfx9, Wave::W64).waves_per_simd(10, 24), 10);
        assert_eq!(t(Gen::Gfx9, Wave::W64).waves_per_simd(94, 24), 8);
        assert_eq!(t(Gen::Gfx10, Wave::W32).waves_per_simd(106, 128), 8);
        assert_eq!(t(Gen::Gfx11, Wave::W32).waves_per_simd(106, 96), 16);
        assert_eq!(t(Gen::Gfx11, Wave::W64).waves_per_simd(106, 96), 8);
    }
}
