//! What the binary layer needs to know about a target GPU: its ELF `e_flags`, its ISA-name
//! note string, and the generation facts that change register packing.
//!
//! This is deliberately a small stand-alone enum: the ISA layer will own the project-wide
//! target enum and this one is meant to be replaced by it (every use goes through the
//! methods below, so the swap is mechanical).
//!
//! `e_flags` follow pal-abi.md §1.2: for `amdpal` LLVM writes the code-object-V3 layout,
//! `EF_AMDGPU_MACH | (xnack on-or-any ? 0x100 : 0) | (sramecc on-or-any ? 0x200 : 0)`.
//! gfx900 defaults to xnack "any" (0x12C); gfx1030 and gfx1100 have neither bit (0x36, 0x41).
//! There is no wave-size bit.

/// A GPU the binary layer can package code for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Target {
    /// GFX9, Vega 10.
    Gfx900,
    /// GFX10.3, Navi 21.
    Gfx1030,
    /// GFX11, Navi 31.
    Gfx1100,
}

/// `EF_AMDGPU_MACH` mask (low byte of `e_flags`).
pub const EF_AMDGPU_MACH: u32 = 0xff;
/// V3 xnack feature bit (on or any).
pub const EF_AMDGPU_FEATURE_XNACK_V3: u32 = 0x100;
/// V3 sramecc feature bit (on or any).
pub const EF_AMDGPU_FEATURE_SRAMECC_V3: u32 = 0x200;

impl Target {
    /// Every target, in generation order.
    pub const ALL: [Target; 3] = [Target::Gfx900, Target::Gfx1030, Target::Gfx1100];

    /// The `-mcpu` style name, e.g. `gfx1030`.
    pub fn name(self) -> &'static str {
        match self {
            Target::Gfx900 => "gfx900",
            Target::Gfx1030 => "gfx1030",
            Target::Gfx1100 => "gfx1100",
        }
    }

    /// Parses an `-mcpu` style name.
    pub fn from_name(name: &str) -> Option<Target> {
        Target::ALL.into_iter().find(|t| t.name() == name)
    }

    /// `EF_AMDGPU_MACH_*` value.
    pub fn mach(self) -> u32 {
        match self {
            Target::Gfx900 => 0x2c,
            Target::Gfx1030 => 0x36,
            Target::Gfx1100 => 0x41,
        }
    }

    /// The `e_flags` LLVM writes for `amdpal` with default features.
    pub fn e_flags(self) -> u32 {
        match self {
            // xnack defaults to "any" on gfx900.
            Target::Gfx900 => self.mach() | EF_AMDGPU_FEATURE_XNACK_V3,
            Target::Gfx1030 | Target::Gfx1100 => self.mach(),
        }
    }

    /// Recognises a target from `e_flags` (feature bits ignored).
    pub fn from_e_flags(flags: u32) -> Option<Target> {
        let mach = flags & EF_AMDGPU_MACH;
        Target::ALL.into_iter().find(|t| t.mach() == mach)
    }

    /// Descriptor of the `NT_AMD_HSA_ISA_NAME` note, e.g. `amdgcn-unknown-amdpal--gfx1030`.
    pub fn isa_name(self) -> String {
        format!("amdgcn-unknown-amdpal--{}", self.name())
    }

    /// Generation major number: 9, 10 or 11.
    pub fn gfx_major(self) -> u32 {
        match self {
            Target::Gfx900 => 9,
            Target::Gfx1030 => 10,
            Target::Gfx1100 => 11,
        }
    }

    /// GFX10 and later: wave32 exists, RSRC1.SGPRS is reserved, WGP_MODE/MEM_ORDERED exist,
    /// COMPUTE_PGM_RSRC3 exists.
    pub fn is_gfx10_plus(self) -> bool {
        self.gfx_major() >= 10
    }

    /// Whether `wave` lanes per wave is supported (wave64 everywhere, wave32 on GFX10+).
    pub fn supports_wave(self, wave: u32) -> bool {
        wave == 64 || (wave == 32 && self.is_gfx10_plus())
    }

    /// Addressable SGPRs a shader may use, excluding VCC (gfx9: 102, gfx10+: 106).
    pub fn max_sgprs(self) -> u32 {
        if self.is_gfx10_plus() {
            106
        } else {
            102
        }
    }
}

impl std::fmt::Display for Target {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}
