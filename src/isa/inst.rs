//! The machine instruction value.
//!
//! An `Inst` is an `Opcode`, the encoding `Format` chosen for it, its explicit operands in
//! the order of the table's operand list (implicit registers such as the `vcc` of VOP2
//! carries are not stored), and modifiers. The same `Inst` encodes on every generation
//! that has the opcode in that format; `desc(gen)` finds the table entry.
//!
//! Invariants checked by `verify`: operand count and kinds match the descriptor, register
//! sizes match (lane masks follow the wave size), at most one distinct literal, modifiers
//! only where the encoding has them.

use super::error::{Error, ErrorKind, Result};
use super::operand::Operand;
use super::tables::{self, EncDesc, Field, Format, ModSet, Opcode};
use super::target::{Gen, Target};
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
    /// SMEM cache policy bits.
    pub glc: bool,
    pub dlc: bool,
    /// Modifiers of the memory, export and interpolation formats.
    pub mem: super::format::mem::MemMods,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Inst {
    pub op: Opcode,
    pub format: Format,
    pub operands: SmallVec<[Operand; 6]>,
    pub mods: Mods,
}

impl Inst {
    /// An instruction with default modifiers (VOP3P op_sel_hi all ones, as LLVM's default).
    pub fn new(op: Opcode, format: Format, operands: &[Operand]) -> Inst {
        let mut mods = Mods::default();
        if format == Format::Vop3p {
            mods.op_sel_hi = 7;
        }
        Inst {
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

    /// Checks the invariants against the table for `t`.
    pub fn verify(&self, t: Target) -> Result<&'static EncDesc> {
        let d = self.desc(t.gen)?;
        if d.format.is_mem() {
            super::format::mem::check(self, d, t)?;
            return Ok(d);
        }
        let n = d.n_explicit();
        if self.operands.len() != n {
            return Err(Error::new(ErrorKind::OperandCount {
                expected: n,
                found: self.operands.len(),
            }));
        }
        let mut lit: Option<Operand> = None;
        for (od, o) in d.explicit().zip(&self.operands) {
            if let Some(kind) = od.imm {
                let ok = match (kind, o) {
                    (tables::ImmKind::Lit, Operand::Literal(_) | Operand::Symbol(_)) => true,
                    (tables::ImmKind::Lit, _) => false,
                    (_, Operand::Imm(_)) => true,
                    (tables::ImmKind::Udec | tables::ImmKind::Sdec, Operand::Label(_)) => true,
                    _ => false,
                };
                if !ok {
                    return Err(Error::bad(format!("{:?} must be an immediate", od.field)));
                }
                if let (Field::Imm32 | Field::K, Operand::Literal(_) | Operand::Symbol(_)) =
                    (od.field, o)
                {
                    if lit.is_some() && lit != Some(*o) {
                        return Err(Error::new(ErrorKind::TwoLiterals));
                    }
                    lit = Some(*o);
                }
                continue;
            }
            match o {
                Operand::Reg(r) => {
                    let want = od.dwords(t.wave);
                    if r.count != want && !(r.base.0 >= 235 && r.base.0 <= 254) {
                        return Err(Error::bad(format!(
                            "{:?} needs {} dword(s), got {}",
                            od.field, want, r.count
                        )));
                    }
                }
                Operand::Inline(c) => {
                    if !matches!(c, 128..=208 | 240..=248) {
                        return Err(Error::range(format!("inline constant code {c}")));
                    }
                }
                Operand::Literal(_) | Operand::Symbol(_) => {
                    if lit.is_some() && lit != Some(*o) {
                        return Err(Error::new(ErrorKind::TwoLiterals));
                    }
                    lit = Some(*o);
                }
                Operand::Imm(_) | Operand::Label(_) | Operand::Off => {
                    return Err(Error::bad(format!("{:?} cannot be an immediate", od.field)))
                }
            }
        }
        let m = &self.mods;
        let need = |ok: bool, what: &str| {
            if ok {
                Ok(())
            } else {
                Err(Error::bad(format!("{} does not accept {what}", d.mnemonic)))
            }
        };
        need(m.abs == 0 || d.mods.contains(ModSet::ABS), "abs")?;
        need(m.neg == 0 || d.mods.contains(ModSet::NEG), "neg")?;
        need(m.neg_hi == 0 || d.mods.contains(ModSet::NEG_HI), "neg_hi")?;
        need(!m.clamp || d.mods.contains(ModSet::CLAMP), "clamp")?;
        need(m.omod == 0 || d.mods.contains(ModSet::OMOD), "omod")?;
        need(m.op_sel == 0 || d.mods.contains(ModSet::OP_SEL), "op_sel")?;
        let hi_default = if d.format == Format::Vop3p { 7 } else { 0 };
        need(
            m.op_sel_hi == hi_default || d.mods.contains(ModSet::OP_SEL),
            "op_sel_hi",
        )?;
        need((!m.glc && !m.dlc) || d.format == Format::Smem, "glc/dlc")?;
        need(m.mem == Default::default(), "memory modifiers")?;
        Ok(d)
    }
}
