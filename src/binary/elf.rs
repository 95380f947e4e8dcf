//! ELF constants and the AMDGPU relocation kinds shared by the writer and the reader
//! (pal-abi.md §1 and §5).
//!
//! [`RelocKind::resolve`] computes a relocated field the way PAL's uploader and our link
//! stage do, so the link stage and the tests share one definition of each calculation.

use super::error::{Error, Result};

/// `ELFOSABI_AMDGPU_PAL`.
pub const ELFOSABI_AMDGPU_PAL: u8 = 65;
/// `ELFOSABI_AMDGPU_HSA`.
pub const ELFOSABI_AMDGPU_HSA: u8 = 64;
/// `EM_AMDGPU`.
pub const EM_AMDGPU: u16 = 224;
/// `ET_REL`.
pub const ET_REL: u16 = 1;

/// `SHT_NULL`.
pub const SHT_NULL: u32 = 0;
/// `SHT_PROGBITS`.
pub const SHT_PROGBITS: u32 = 1;
/// `SHT_SYMTAB`.
pub const SHT_SYMTAB: u32 = 2;
/// `SHT_STRTAB`.
pub const SHT_STRTAB: u32 = 3;
/// `SHT_RELA`.
pub const SHT_RELA: u32 = 4;
/// `SHT_NOTE`.
pub const SHT_NOTE: u32 = 7;
/// `SHT_NOBITS`.
pub const SHT_NOBITS: u32 = 8;
/// `SHT_REL`.
pub const SHT_REL: u32 = 9;

/// `SHF_WRITE`.
pub const SHF_WRITE: u64 = 1;
/// `SHF_ALLOC`.
pub const SHF_ALLOC: u64 = 2;
/// `SHF_EXECINSTR`.
pub const SHF_EXECINSTR: u64 = 4;
/// `SHF_INFO_LINK`.
pub const SHF_INFO_LINK: u64 = 0x40;

/// `STB_LOCAL`.
pub const STB_LOCAL: u8 = 0;
/// `STB_GLOBAL`.
pub const STB_GLOBAL: u8 = 1;
/// `STT_NOTYPE`.
pub const STT_NOTYPE: u8 = 0;
/// `STT_OBJECT`.
pub const STT_OBJECT: u8 = 1;
/// `STT_FUNC`.
pub const STT_FUNC: u8 = 2;
/// `STT_SECTION`.
pub const STT_SECTION: u8 = 3;
/// `SHN_UNDEF`.
pub const SHN_UNDEF: u16 = 0;
/// `SHN_ABS`.
pub const SHN_ABS: u16 = 0xfff1;
/// `SHN_COMMON`.
pub const SHN_COMMON: u16 = 0xfff2;

/// `NT_AMD_HSA_ISA_NAME` (owner "AMD").
pub const NT_AMD_HSA_ISA_NAME: u32 = 11;
/// `NT_AMDGPU_METADATA` (owner "AMDGPU").
pub const NT_AMDGPU_METADATA: u32 = 32;

/// Alignment of `.text` and of every hardware-stage entry point (PAL requires 256).
pub const TEXT_ALIGN: u64 = 256;

/// An AMDGPU relocation type (pal-abi.md §5.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum RelocKind {
    /// `R_AMDGPU_NONE` (0).
    None,
    /// `R_AMDGPU_ABS32_LO` (1): (S+A) & 0xFFFFFFFF.
    Abs32Lo,
    /// `R_AMDGPU_ABS32_HI` (2): (S+A) >> 32.
    Abs32Hi,
    /// `R_AMDGPU_ABS64` (3): S+A.
    Abs64,
    /// `R_AMDGPU_REL32` (4): S+A-P.
    Rel32,
    /// `R_AMDGPU_REL64` (5): S+A-P.
    Rel64,
    /// `R_AMDGPU_ABS32` (6): S+A.
    Abs32,
    /// `R_AMDGPU_GOTPCREL` (7).
    GotPcRel,
    /// `R_AMDGPU_GOTPCREL32_LO` (8).
    GotPcRel32Lo,
    /// `R_AMDGPU_GOTPCREL32_HI` (9).
    GotPcRel32Hi,
    /// `R_AMDGPU_REL32_LO` (10): (S+A-P) & 0xFFFFFFFF.
    Rel32Lo,
    /// `R_AMDGPU_REL32_HI` (11): (S+A-P) >> 32.
    Rel32Hi,
    /// `R_AMDGPU_RELATIVE64` (13): B+A.
    Relative64,
    /// `R_AMDGPU_REL16` (14): ((S+A-P) - 4) / 4 into a 16-bit SOPP simm16.
    Rel16,
}

impl RelocKind {
    /// Every kind.
    pub const ALL: [RelocKind; 14] = [
        RelocKind::None,
        RelocKind::Abs32Lo,
        RelocKind::Abs32Hi,
        RelocKind::Abs64,
        RelocKind::Rel32,
        RelocKind::Rel64,
        RelocKind::Abs32,
        RelocKind::GotPcRel,
        RelocKind::GotPcRel32Lo,
        RelocKind::GotPcRel32Hi,
        RelocKind::Rel32Lo,
        RelocKind::Rel32Hi,
        RelocKind::Relative64,
        RelocKind::Rel16,
    ];

    /// ELF `r_type` number.
    pub fn number(self) -> u32 {
        match self {
            RelocKind::None => 0,
            RelocKind::Abs32Lo => 1,
            RelocKind::Abs32Hi => 2,
            RelocKind::Abs64 => 3,
            RelocKind::Rel32 => 4,
            RelocKind::Rel64 => 5,
            RelocKind::Abs32 => 6,
            RelocKind::GotPcRel => 7,
            RelocKind::GotPcRel32Lo => 8,
            RelocKind::GotPcRel32Hi => 9,
            RelocKind::Rel32Lo => 10,
            RelocKind::Rel32Hi => 11,
            RelocKind::Relative64 => 13,
            RelocKind::Rel16 => 14,
        }
    }

    /// From an `r_type` number.
    pub fn from_number(n: u32) -> Option<RelocKind> {
        RelocKind::ALL.into_iter().find(|k| k.number() == n)
    }

    /// The name llvm-readelf prints.
    pub fn name(self) -> &'static str {
        match self {
            RelocKind::None => "R_AMDGPU_NONE",
            RelocKind::Abs32Lo => "R_AMDGPU_ABS32_LO",
            RelocKind::Abs32Hi => "R_AMDGPU_ABS32_HI",
            RelocKind::Abs64 => "R_AMDGPU_ABS64",
            RelocKind::Rel32 => "R_AMDGPU_REL32",
            RelocKind::Rel64 => "R_AMDGPU_REL64",
            RelocKind::Abs32 => "R_AMDGPU_ABS32",
            RelocKind::GotPcRel => "R_AMDGPU_GOTPCREL",
            RelocKind::GotPcRel32Lo => "R_AMDGPU_GOTPCREL32_LO",
            RelocKind::GotPcRel32Hi => "R_AMDGPU_GOTPCREL32_HI",
            RelocKind::Rel32Lo => "R_AMDGPU_REL32_LO",
            RelocKind::Rel32Hi => "R_AMDGPU_REL32_HI",
            RelocKind::Relative64 => "R_AMDGPU_RELATIVE64",
            RelocKind::Rel16 => "R_AMDGPU_REL16",
        }
    }

    /// Bytes of the relocated field.
    pub fn field_size(self) -> usize {
        match self {
            RelocKind::None => 0,
            RelocKind::Rel16 => 2,
            RelocKind::Abs64 | RelocKind::Rel64 | RelocKind::Relative64 => 8,
            _ => 4,
        }
    }

    /// Reads the REL implicit addend from the field bytes: 32-bit fields sign-extend,
    /// 64-bit fields are taken whole, and REL16 zero-extends the raw 16 bits the way PAL's
    /// uploader does (pal-abi.md §5.3).
    pub fn implicit_addend(self, field: &[u8]) -> i64 {
        match self.field_size() {
            0 => 0,
            2 => u16::from_le_bytes([field[0], field[1]]) as i64,
            4 => i32::from_le_bytes([field[0], field[1], field[2], field[3]]) as i64,
            _ => i64::from_le_bytes(field[..8].try_into().unwrap_or([0; 8])),
        }
    }

    /// Encodes `addend` as the REL implicit addend, or fails when the field cannot hold it
    /// (32-bit fields take i32; REL16 takes 0..=0xFFFF, as PAL reads it unsigned).
    pub fn encode_addend(self, addend: i64) -> Result<Vec<u8>> {
        let bad = |range: &str| {
            Error::invalid(
                format!("{} addend", self.name()),
                format!("{addend} does not fit a REL field ({range})"),
            )
        };
        Ok(match self.field_size() {
            0 if addend == 0 => Vec::new(),
            0 => return Err(bad("must be 0")),
            2 => u16::try_from(addend)
                .map_err(|_| bad("0..=65535"))?
                .to_le_bytes()
                .to_vec(),
            4 => i32::try_from(addend)
                .map_err(|_| bad("i32"))?
                .to_le_bytes()
                .to_vec(),
            _ => addend.to_le_bytes().to_vec(),
        })
    }

    /// The field bytes after resolution, with S = symbol address, A = addend, P = field
    /// address (the SOPP instruction's address for REL16). GOT-relative and RELATIVE64
    /// kinds need a GOT / load base and are refused; REL16 is range-checked.
    pub fn resolve(self, s: u64, a: i64, p: u64) -> Result<Vec<u8>> {
        let sa = s.wrapping_add(a as u64);
        let pcrel = sa.wrapping_sub(p);
        Ok(match self {
            RelocKind::None => Vec::new(),
            RelocKind::Abs32Lo | RelocKind::Abs32 => (sa as u32).to_le_bytes().to_vec(),
            RelocKind::Abs32Hi => ((sa >> 32) as u32).to_le_bytes().to_vec(),
            RelocKind::Abs64 => sa.to_le_bytes().to_vec(),
            RelocKind::Rel32 | RelocKind::Rel32Lo => (pcrel as u32).to_le_bytes().to_vec(),
            RelocKind::Rel32Hi => ((pcrel >> 32) as u32).to_le_bytes().to_vec(),
            RelocKind::Rel64 => pcrel.to_le_bytes().to_vec(),
            RelocKind::Rel16 => {
                let delta = pcrel as i64 - 4;
                if delta % 4 != 0 || !(-(1 << 17)..(1 << 17)).contains(&delta) {
                    return Err(Error::invalid(
                        "R_AMDGPU_REL16",
                        format!("branch distance {delta} is not a dword multiple within ±128 KiB"),
                    ));
                }
                ((delta / 4) as i16).to_le_bytes().to_vec()
            }
            RelocKind::GotPcRel
            | RelocKind::GotPcRel32Lo
            | RelocKind::GotPcRel32Hi
            | RelocKind::Relative64 => {
                return Err(Error::invalid(
                    self.name(),
                    "needs a GOT or load base; not resolved at link time",
                ))
            }
        })
    }
}

/// Rounds `v` up to a multiple of the power of two `align` (0 and 1 leave it unchanged).
pub(crate) fn align_up(v: u64, align: u64) -> u64 {
    if align <= 1 {
        v
    } else {
        v.div_ceil(align) * align
    }
}
