//! One file per encoding format. Each format file owns its bit layout (per generation,
//! in one place at its top) and provides
//! `encode(cx: &mut Enc, d: &EncDesc, inst: &Inst) -> Result<()>` and
//! `decode(cx: &Dec, w: &[u32]) -> Result<(Inst, usize)>` (instruction and length in
//! dwords). Operand value conversions shared by all formats live here.
//!
//! To add a format: add the file, a `Format` variant in `tables.rs`, its row in
//! `FORMATS` in `build.rs`, and one arm in `encode.rs`, `decode.rs::classify` and the
//! dispatch in `decode.rs` (see docs/isa.md).
//!
//! Layering: the formats use the tables, registers and operands below them and are used
//! by `encode`, `decode`, `print` and `parse` above them; `tables.rs` never calls back.

pub mod dpp;
pub mod ds;
pub mod exp;
pub mod flat;
pub mod ldsdir;
pub mod mem;
pub mod mimg;
pub mod mtbuf;
pub mod mubuf;
pub mod sdwa;
pub mod smem;
pub mod sop1;
pub mod sop2;
pub mod sopc;
pub mod sopk;
pub mod sopp;
pub mod vinterp;
pub mod vintrp;
pub mod vop1;
pub mod vop2;
pub mod vop3;
pub mod vop3p;
pub mod vopc;
pub mod vopd;

use super::encode::{Fixup, FixupKind};
use super::error::{Error, ErrorKind, Result};
use super::inst::Inst;
use super::operand::Operand;
use super::reg::{decode_code, encode_code, PhysReg, Reg};
use super::tables::{EncDesc, Field, OpDesc, ValTy};
use super::target::{Gen, Target};

/// Encoder state for one instruction: dwords, the pending literal, fixups.
pub struct Enc<'a> {
    pub t: Target,
    pub words: &'a mut Vec<u32>,
    pub fixups: &'a mut Vec<Fixup>,
    pub literal: Option<Operand>,
}

impl Enc<'_> {
    /// Code of a source operand (register, inline constant or literal = 255).
    pub fn src(&mut self, o: &Operand) -> Result<u16> {
        match *o {
            Operand::Reg(r) => Ok(encode_code(self.t.gen, r.base)),
            Operand::Inline(c) => Ok(c as u16),
            Operand::Literal(_) | Operand::Symbol(_) => {
                if self.literal.is_some() && self.literal != Some(*o) {
                    return Err(Error::new(ErrorKind::TwoLiterals));
                }
                self.literal = Some(*o);
                Ok(255)
            }
            Operand::Imm(_) | Operand::Label(_) | Operand::Off => {
                Err(Error::bad("immediate where a source is expected"))
            }
        }
    }

    /// Code of a destination register.
    pub fn dst(&self, o: &Operand) -> Result<u16> {
        match *o {
            Operand::Reg(r) => Ok(encode_code(self.t.gen, r.base)),
            _ => Err(Error::bad("destination must be a register")),
        }
    }

    /// Appends the instruction's literal dword if one is pending.
    pub fn finish(&mut self) {
        match self.literal {
            Some(Operand::Literal(v)) => self.words.push(v),
            Some(Operand::Symbol(s)) => {
                self.fixups.push(Fixup {
                    offset: self.words.len() * 4,
                    kind: FixupKind::Abs32,
                    target: s,
                });
                self.words.push(0);
            }
            _ => {}
        }
    }
}

/// Decoder context.
pub struct Dec {
    pub t: Target,
    /// Decoding a VALU encoding (some sources are only valid there).
    pub valu: bool,
    /// Decoding VOP3P (packed 16-bit operands take 32-bit literals).
    pub packed: bool,
}

impl Dec {
    pub fn gen(&self) -> Gen {
        self.t.gen
    }

    /// Decodes a source code of operand `od`; a literal is read from `w[lit_at]`.
    pub fn src(&self, od: &OpDesc, code: u16, w: &[u32], lit_at: usize) -> Result<Operand> {
        match code {
            128..=208 | 240..=248 => Ok(Operand::Inline(code as u8)),
            255 => w
                .get(lit_at)
                .map(|&v| match od.ty {
                    // LLVM keeps only the low half of a literal for a 16-bit operand (packed
                    // VOP3P operands keep all 32 bits)
                    ValTy::F16 | ValTy::I16 if !self.packed => Operand::Literal(v & 0xffff),
                    _ => Operand::Literal(v),
                })
                .ok_or(Error::new(ErrorKind::Truncated {
                    needed: (lit_at + 1) * 4,
                    available: w.len() * 4,
                })),
            _ => self.reg(od, code),
        }
    }

    /// Decodes a register operand of `od`'s size.
    pub fn reg(&self, od: &OpDesc, code: u16) -> Result<Operand> {
        let gen = self.gen();
        let base = decode_code(gen, code)
            .ok_or_else(|| Error::invalid(format!("register code {code} in {:?}", od.field)))?;
        let wide = od.dwords(self.t.wave);
        let count = if (235..=254).contains(&base.0) {
            1
        } else {
            wide
        };
        let sgprs = if gen == Gen::Gfx9 { 102 } else { 106 };
        // a GFX9 tuple may reach into s102/s103 (LLVM's SGPR tuples end at s103)
        let sgpr_end = if gen == Gen::Gfx9 { 104 } else { 106 };
        let invalid = |why: &str| Err(Error::invalid(format!("{why} ({:?})", od.field)));
        let n = base.0;
        // tuples: LLVM ignores the low bits of a misaligned SGPR/TTMP tuple (s[13:14] is
        // s[12:13]); a special register pair must start at its even half
        let base = match n {
            _ if count < 2 => base,
            0..=105 if n < sgprs => PhysReg(n & !(count.min(4) as u16 - 1)),
            108..=123 => PhysReg(n & !(count.min(4) as u16 - 1)),
            102 | 104 if gen == Gen::Gfx9 && count == 2 => base,
            106 | 126 if count == 2 => base,
            125 => base, // null stands for a tuple of any size
            _ if base.is_vgpr() => base,
            _ => return invalid("not a register pair"),
        };
        let n = base.0;
        let end = n as u32 + count as u32;
        if n < sgprs && end > sgpr_end as u32 {
            return invalid("register range runs off the SGPRs");
        }
        if (108..=123).contains(&n) && end > 124 {
            return invalid("register range runs off the trap temporaries");
        }
        if base.is_vgpr() && end > 512 {
            return invalid("register range runs off the VGPRs");
        }
        if n == 254 && (!self.valu || wide > 1) {
            return invalid("lds_direct outside a VALU source");
        }
        Ok(Operand::Reg(Reg { base, count }))
    }
}

/// Gathers the explicit operands of `d` from field values: `get(field, desc)`.
pub fn collect(
    d: &EncDesc,
    mut get: impl FnMut(&OpDesc) -> Result<Operand>,
) -> Result<smallvec::SmallVec<[Operand; 6]>> {
    d.explicit().map(&mut get).collect()
}

/// Reads dword `i` or reports truncation.
pub fn word(w: &[u32], i: usize) -> Result<u32> {
    w.get(i).copied().ok_or(Error::new(ErrorKind::Truncated {
        needed: (i + 1) * 4,
        available: w.len() * 4,
    }))
}

/// Does any explicit source of `inst` need the literal dword?
pub fn has_literal(inst: &Inst) -> bool {
    inst.operands.iter().any(|o| o.is_literal())
}

/// Field value of an immediate operand (labels encode as 0 and record a fixup).
pub fn imm(cx: &mut Enc, o: &Operand, bits: u32, field_byte: usize) -> Result<u32> {
    match *o {
        Operand::Imm(v) => {
            if bits < 32 && v >= 1 << bits {
                return Err(Error::range(format!(
                    "immediate {v:#x} does not fit {bits} bits"
                )));
            }
            Ok(v)
        }
        Operand::Label(l) => {
            cx.fixups.push(Fixup {
                offset: cx.words.len() * 4 + field_byte,
                kind: FixupKind::Branch16,
                target: l,
            });
            Ok(0)
        }
        _ => Err(Error::bad("expected an immediate")),
    }
}

/// The operand in `field` or an error naming the field.
pub fn need<'a>(inst: &'a Inst, d: &EncDesc, field: Field) -> Result<&'a Operand> {
    inst.get(d, field)
        .ok_or_else(|| Error::bad(format!("missing {field:?}")))
}

/// Bits of each operand field, per format: (field, word, mask).
fn field_bits(f: super::tables::Format) -> &'static [(Field, usize, u32)] {
    use super::tables::Format::*;
    match f {
        // scalar formats: LLVM ignores unused register fields, but an operand-less SOPP
        // (s_barrier, s_code_end) needs a zero simm16
        Sopp => &[(Field::Simm16, 0, 0xffff)],
        Vop1 => &[(Field::Vdst, 0, 0xff << 17), (Field::Src0, 0, 0x1ff)],
        Vop2 => &[
            (Field::Vdst, 0, 0xff << 17),
            (Field::Vsrc1, 0, 0xff << 9),
            (Field::Src0, 0, 0x1ff),
        ],
        Vopc => &[(Field::Vsrc1, 0, 0xff << 9), (Field::Src0, 0, 0x1ff)],
        Vop3 | Vop3Dpp | Vop3Dpp8 => &[
            (Field::Vdst, 0, 0xff),
            (Field::Src0, 1, 0x1ff),
            (Field::Src1, 1, 0x1ff << 9),
            (Field::Src2, 1, 0x1ff << 18),
        ],
        Vop3p => &[
            (Field::Vdst, 0, 0xff),
            (Field::Src0, 1, 0x1ff),
            (Field::Src1, 1, 0x1ff << 9),
            (Field::Src2, 1, 0x1ff << 18),
        ],
        _ => &[],
    }
}

/// LLVM's decoder only accepts a VALU encoding whose unused operand fields hold zero;
/// scalar formats ignore them except the SOPP simm16. A field with a nonzero fixed value
/// (`EncDesc::fixed`: the exec_lo LLVM's assembler writes into the VDST of
/// `v_cmpx_*_e64` and its DPP forms on GFX10+) is the exception: LLVM decodes any value
/// there (probed: every such instruction with VDST 0, 5 and 0x7e decodes to the same text).
/// Checks that.
pub fn check_unused(d: &EncDesc, w: &[u32]) -> Result<()> {
    for &(field, i, mask) in field_bits(d.format) {
        if d.operands.iter().any(|o| o.field == field) || w.len() <= i || d.fixed[i] & mask != 0 {
            continue;
        }
        if w[i] & mask != d.fixed[i] & mask {
            return Err(Error::invalid(format!(
                "unused {field:?} field is not {:#x}",
                d.fixed[i] & mask
            )));
        }
    }
    Ok(())
}
