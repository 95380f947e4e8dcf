//! The machine instruction value.
//!
//! An `Inst` is an `Opcode`, the encoding `Format` chosen for it, its explicit operands in
//! the order of the table's operand list (implicit registers such as the `vcc` of VOP2
//! carries are not stored), and modifiers. The same `Inst` encodes on every generation
//! that has the opcode in that format; `desc(gen)` finds the table entry.
//!
//! Invariants checked by `verify` (module `verify`, above the per-format rules, so that this
//! value type depends on none of them): operand count and kinds match the descriptor,
//! register sizes match (lane masks follow the wave size), at most one distinct literal,
//! modifiers only where the encoding has them.

use super::error::{Error, ErrorKind, Result};
use super::operand::Operand;
use super::tables::{self, EncDesc, Field, Format, Opcode};
use super::target::Gen;
use smallvec::SmallVec;

/// Source and output modifiers. Bit i of a mask is source i.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Mods {
    pub abs: u8,
    pub neg: u8,
    /// VOP3P: negate the high halves.
    pub neg_hi: u8,
    /// VOP3: bit 3 is the destination; VOP3P: sources only.
    pub op_sel: u8,
    /// VOP3P only; `Mods::default()` uses 0, see `Inst::new` which sets the all-ones default.
    pub op_sel_hi: u8,
    pub clamp: bool,
    /// 0 none, 1 mul:2, 2 mul:4, 3 div:2.
    pub omod: u8,
    /// Memory instructions: an immediate byte offset printed as `offset:` (SMEM: the one
    /// that accompanies an SGPR offset operand).
    pub offset: u32,
    /// SMEM cache policy bits.
    pub glc: bool,
    pub dlc: bool,
    /// Modifiers of the memory, export and interpolation formats.
    pub mem: MemMods,
    pub sdwa: Sdwa,
    pub dpp: Dpp,
}

/// Modifiers of the memory, export and interpolation formats (`glc`/`dlc` and the VOP3-style
/// `neg`/`clamp`/`op_sel` of VINTERP live in `Mods` itself).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct MemMods {
    /// DS: 16-bit offset (two-address forms: offset0 | offset1 << 8); MUBUF/MTBUF: 12-bit
    /// unsigned; FLAT: signed (GFX9 global/scratch 13 bits, GFX10 12, GFX11 13; GFX9/10
    /// flat unsigned).
    pub offset: i32,
    pub gds: bool,
    pub slc: bool,
    pub offen: bool,
    pub idxen: bool,
    pub lds: bool,
    pub tfe: bool,
    pub lwe: bool,
    /// MTBUF format: GFX9 dfmt | nfmt << 4; GFX10+ the unified 7-bit format.
    pub format: u8,
    /// MIMG
    pub dmask: u8,
    /// MIMG dimension (GFX10+), SQ_RSRC_IMG_1D = 0.
    pub dim: u8,
    pub unorm: bool,
    pub r128: bool,
    pub a16: bool,
    pub d16: bool,
    /// MIMG GFX9 array flag.
    pub da: bool,
    /// EXP
    pub done: bool,
    pub vm: bool,
    pub compr: bool,
    pub row_en: bool,
    /// LDSDIR wait_vdst, VINTERP wait_exp.
    pub wait: u8,
}

/// SDWA selections (GFX9/GFX10). Selects: 0..=3 BYTE_n, 4/5 WORD_0/1, 6 DWORD;
/// dst_unused: 0 UNUSED_PAD, 1 UNUSED_SEXT, 2 UNUSED_PRESERVE.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Sdwa {
    pub dst_sel: u8,
    pub dst_unused: u8,
    pub src0_sel: u8,
    pub src1_sel: u8,
    /// Sign-extend the selected part of source i (bit i).
    pub sext: u8,
    /// VOPC: an explicit SGPR destination instead of VCC.
    pub sdst: Option<super::reg::Reg>,
}

impl Default for Sdwa {
    fn default() -> Sdwa {
        Sdwa {
            dst_sel: 6,
            dst_unused: 0,
            src0_sel: 6,
            src1_sel: 6,
            sext: 0,
            sdst: None,
        }
    }
}

/// DPP controls. DPP16 uses `ctrl` (quad_perm 0x00..=0xff, row_shl 0x101.., ...), the
/// masks, `bound_ctrl` and `fi`; DPP8 uses `sel8` (eight 3-bit lane selects) and `fi`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Dpp {
    pub ctrl: u16,
    pub row_mask: u8,
    pub bank_mask: u8,
    pub bound_ctrl: bool,
    pub fi: bool,
    pub sel8: u32,
}

impl Default for Dpp {
    fn default() -> Dpp {
        Dpp {
            ctrl: 0xe4,
            row_mask: 0xf,
            bank_mask: 0xf,
            bound_ctrl: false,
            fi: false,
            sel8: 0xfac688,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Inst {
    pub op: Opcode,
    pub format: Format,
    pub operands: SmallVec<[Operand; 6]>,
    pub mods: Mods,
    /// VOPD only: the Y instruction; its operands follow the X operands.
    pub op_y: Option<Opcode>,
}

impl Inst {
    /// An instruction with default modifiers (VOP3P op_sel_hi all ones, MTBUF format 1, as
    /// LLVM's defaults).
    pub fn new(op: Opcode, format: Format, operands: &[Operand]) -> Inst {
        let mut mods = Mods::default();
        if format == Format::Vop3p && !op.is_mix() {
            mods.op_sel_hi = 7;
        }
        if format == Format::Mtbuf {
            mods.mem.format = 1; // LLVM's default buffer format, printed as nothing
        }
        Inst {
            op_y: None,
            op,
            format,
            operands: operands.into(),
            mods,
        }
    }

    /// The table entry for this instruction on `gen`.
    pub fn desc(&self, gen: Gen) -> Result<&'static EncDesc> {
        tables::form(gen, self.op, self.format).ok_or_else(|| {
            Error::new(ErrorKind::NotOnTarget(format!(
                "{} ({:?})",
                self.op.name(),
                self.format
            )))
        })
    }

    /// The operand in `field`, if the encoding has one.
    pub fn get(&self, d: &EncDesc, field: Field) -> Option<&Operand> {
        d.slot(field).and_then(|i| self.operands.get(i))
    }

    /// The literal dword this instruction carries, if any.
    pub fn literal(&self) -> Option<Operand> {
        self.operands.iter().copied().find(|o| o.is_literal())
    }
}
