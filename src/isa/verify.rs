//! Instruction legality: `Inst::verify` (what LLVM's assembler accepts for the
//! generation: operand count, kinds and sizes, literals, modifiers, and each encoding
//! format's own rules) and `Inst::check_printable`.
//!
//! Layering: the instruction value (`inst`) is below the per-format rules (`format`), and
//! this module is above both, so the value type does not depend on the formats that
//! check it.

use super::error::{Error, ErrorKind, Result};
use super::inst::{Dpp, Inst, Mods, Sdwa};
use super::operand::Operand;
use super::tables::{self, EncDesc, Field, Format, ModSet, Opcode};
use super::target::{Gen, Target};
use smallvec::SmallVec;

impl Inst {
    /// Checks the invariants against the table for `t`.
    pub fn verify(&self, t: Target) -> Result<&'static EncDesc> {
        self.check(t, true)
    }

    /// The structural checks only: what must hold for the instruction to have a text at
    /// all. LLVM's disassembler prints encodings its assembler would refuse (constant-bus
    /// violations, 32-bit K for f16, negative s_buffer offsets ...); so does `print`.
    pub fn check_printable(&self, t: Target) -> Result<&'static EncDesc> {
        self.check(t, false)
    }

    fn check(&self, t: Target, strict: bool) -> Result<&'static EncDesc> {
        if self.format == Format::VopdX {
            if let Some(y) = self.op_y {
                return self.verify_vopd(t, y, strict);
            }
        }
        if self.op_y.is_some() {
            return Err(Error::bad("only a VOPD X half carries a Y instruction"));
        }
        self.verify_single(t, strict)
    }

    /// The X and Y halves of a VOPD instruction as separate (unencodable) instructions.
    pub fn vopd_halves(&self, gen: Gen) -> Result<(Inst, Inst)> {
        let y = self
            .op_y
            .ok_or_else(|| Error::bad("VOPD without a Y half"))?;
        let dx = self.desc(gen)?;
        let nx = dx.n_explicit().min(self.operands.len());
        let x = Inst::new(self.op, Format::VopdX, &self.operands[..nx]);
        let y = Inst::new(y, Format::VopdY, &self.operands[nx..]);
        Ok((x, y))
    }

    /// VOPD pairing rules: each half valid, destinations of opposite parity, sources of
    /// the two halves in different VGPR banks (index mod 4), one literal value, wave32.
    fn verify_vopd(&self, t: Target, _y: Opcode, strict: bool) -> Result<&'static EncDesc> {
        if self.mods != Mods::default() {
            return Err(Error::bad("VOPD takes no modifiers"));
        }
        if t.wave != super::target::Wave::W32 {
            return Err(Error::bad("VOPD needs wave32"));
        }
        let (x, y) = self.vopd_halves(t.gen)?;
        let dx = x.verify_single(t, strict)?;
        let dy = y.verify_single(t, strict)?;
        if !strict {
            return Ok(dx);
        }
        let get = |i: &Inst, d: &EncDesc, f: Field| i.get(d, f).copied();
        if let (Some(Operand::Reg(a)), Some(Operand::Reg(b))) =
            (get(&x, dx, Field::Vdst), get(&y, dy, Field::Vdst))
        {
            if (a.base.0 ^ b.base.0) & 1 == 0 {
                return Err(Error::new(ErrorKind::VopdBank("vdst")));
            }
        }
        // VGPR banks: src0 and src1 by index mod 4, the accumulator "src2" by parity. The
        // accumulator is vdst for fmac/dot2acc and vsrc1 for fmamk (whose src1 is K).
        let roles = |i: &Inst, d: &EncDesc| -> [Option<u16>; 3] {
            let v = |f| match get(i, d, f) {
                Some(Operand::Reg(r)) if r.base.is_vgpr() => Some(r.base.0),
                _ => None,
            };
            match i.op.name() {
                "v_dual_fmamk_f32" => [v(Field::Src0), None, v(Field::Vsrc1)],
                "v_dual_fmac_f32" | "v_dual_dot2acc_f32_f16" => {
                    [v(Field::Src0), v(Field::Vsrc1), v(Field::Vdst)]
                }
                _ => [v(Field::Src0), v(Field::Vsrc1), None],
            }
        };
        let (rx, ry) = (roles(&x, dx), roles(&y, dy));
        for (k, banks, role) in [(0usize, 4u16, "src0"), (1, 4, "src1"), (2, 2, "src2")] {
            if let (Some(a), Some(b)) = (rx[k], ry[k]) {
                if a % banks == b % banks {
                    return Err(Error::new(ErrorKind::VopdBank(role)));
                }
            }
        }
        // one constant bus for the pair: distinct SGPRs, the literal, VCC of v_dual_cndmask
        let mut sgprs: SmallVec<[u16; 4]> = SmallVec::new();
        for o in &self.operands {
            if let Operand::Reg(r) = o {
                if !r.base.is_vgpr() && !sgprs.contains(&r.base.0) {
                    sgprs.push(r.base.0);
                }
            }
        }
        let vcc = [x.op, y.op]
            .iter()
            .any(|o| o.props().contains(super::tables::Props::READS_VCC));
        let used = sgprs.len() + self.literal().is_some() as usize + vcc as usize;
        if used > 2 {
            return Err(Error::bad(format!(
                "VOPD pair reads {used} scalar values; the constant bus allows 2"
            )));
        }
        let lits: Vec<Operand> = self
            .operands
            .iter()
            .copied()
            .filter(|o| o.is_literal())
            .collect();
        if lits.windows(2).any(|w| w[0] != w[1]) {
            return Err(Error::new(ErrorKind::TwoLiterals));
        }
        Ok(dx)
    }

    fn verify_single(&self, t: Target, strict: bool) -> Result<&'static EncDesc> {
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
                    (_, Operand::Reg(r)) if od.allow_asm & tables::ALLOW_SGPR != 0 => {
                        !r.base.is_vgpr() && r.base.0 < 128
                    }
                    (tables::ImmKind::Udec | tables::ImmKind::Sdec, Operand::Label(_)) => true,
                    _ => false,
                };
                if !ok {
                    return Err(Error::bad(format!("{:?} must be an immediate", od.field)));
                }
                let width = match od.field {
                    Field::Ssrc0 | Field::Ssrc1 | Field::Sdata => 8,
                    Field::Simm16 => 16,
                    _ => 32,
                };
                if let Operand::Imm(v) = o {
                    if width < 32 && *v >= 1 << width {
                        return Err(Error::range(format!(
                            "{:?} immediate {v:#x} does not fit {width} bits",
                            od.field
                        )));
                    }
                }
                if let (Field::K, Operand::Literal(v), super::tables::ValTy::F16) =
                    (od.field, o, od.ty)
                {
                    if *v > 0xffff && strict {
                        return Err(Error::range(format!("16-bit K constant {v:#x}")));
                    }
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
                Operand::Reg(r)
                    if od.lo128
                        && r.base.is_vgpr()
                        && r.base.0 as u32 + r.count as u32 > 256 + 128 =>
                {
                    return Err(Error::range(format!(
                        "{:?} of {} must be one of v0..v127",
                        od.field, d.mnemonic
                    )));
                }
                Operand::Reg(r) if register_file(d, od).is_some_and(|v| v != r.base.is_vgpr()) => {
                    return Err(Error::bad(format!(
                        "{:?} of {} must be {}",
                        od.field,
                        d.mnemonic,
                        if r.base.is_vgpr() {
                            "a scalar register"
                        } else {
                            "a VGPR"
                        }
                    )));
                }
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
        if d.format.is_vop3() {
            need(m.abs & !d.abs_mask == 0, "abs on that source")?;
            need(
                m.neg & !(d.neg_mask | d.sext_mask) == 0,
                "neg on that source",
            )?;
        } else if d.format.is_sdwa() || d.format.is_dpp16() {
            need(m.abs & !d.abs_mask == 0, "abs on that source")?;
            need(m.neg & !d.neg_mask == 0, "neg on that source")?;
            need(m.sdwa.sext & !d.sext_mask == 0, "sext on that source")?;
        } else {
            need(m.abs == 0, "abs")?;
            need(m.neg == 0 || d.mods.contains(ModSet::NEG), "neg")?;
        }
        need(m.neg_hi == 0 || d.mods.contains(ModSet::NEG_HI), "neg_hi")?;
        need(!m.clamp || d.mods.contains(ModSet::CLAMP), "clamp")?;
        need(m.omod == 0 || d.mods.contains(ModSet::OMOD), "omod")?;
        need(m.op_sel == 0 || d.mods.contains(ModSet::OP_SEL), "op_sel")?;
        // per-source modifier bits only for sources the instruction has (LLVM rejects others)
        let srcs = d.explicit().fold(0u8, |a, o| match o.field {
            Field::Src0 => a | 1,
            Field::Src1 | Field::Vsrc1 => a | 2,
            Field::Src2 => a | 4,
            _ => a,
        });
        if d.format == Format::Vop3p {
            need(
                (m.neg | m.neg_hi | m.op_sel) & !srcs == 0,
                "modifiers on absent sources",
            )?;
            if !self.op.is_mix() {
                need(
                    m.op_sel_hi & !srcs & 7 == !srcs & 7,
                    "op_sel_hi cleared on absent sources",
                )?;
            }
        }
        if d.format.is_vop3() {
            need(m.op_sel & !srcs & 7 == 0, "op_sel on absent sources")?;
            need(m.op_sel & !d.opsel_mask == 0, "op_sel on that operand")?;
        }
        let hi_default = if d.format == Format::Vop3p && !self.op.is_mix() {
            7
        } else {
            0
        };
        need(
            m.op_sel_hi == hi_default || d.mods.contains(ModSet::OP_SEL),
            "op_sel_hi",
        )?;
        need(m.offset == 0 || d.format == Format::Smem, "offset:")?;
        if m.offset != 0
            && !matches!(
                d.slot(Field::Offset).map(|i| &self.operands[i]),
                Some(Operand::Reg(_))
            )
        {
            return Err(Error::bad("offset: needs an SGPR offset operand"));
        }
        if strict && d.format == Format::Smem && d.mnemonic.starts_with("s_buffer_") {
            // buffer offsets are unsigned 20-bit (the assembler rejects negative ones)
            let imm = d.slot(Field::Offset).and_then(|i| match self.operands[i] {
                Operand::Imm(v) => Some(v),
                _ => None,
            });
            if imm.unwrap_or(0) >= 1 << 20 || m.offset >= 1 << 20 {
                return Err(Error::range("s_buffer_* offsets are unsigned 20-bit"));
            }
        }
        need(!m.glc || d.mods.contains(ModSet::GLC), "glc")?;
        if d.format.is_sdwa() {
            let w = &m.sdwa;
            need(
                w.dst_sel <= 6 && w.src0_sel <= 6 && w.src1_sel <= 6 && w.dst_unused <= 2,
                "that SDWA select",
            )?;
            let has_vcc = d
                .operands
                .iter()
                .any(|o| o.implicit == Some(super::tables::Implicit::Vcc));
            need(
                w.sdst.is_none() || (d.format == Format::VopcSdwa && has_vcc),
                "an SDWA sdst",
            )?;
        } else {
            need(m.sdwa == Sdwa::default(), "SDWA selects")?;
        }
        if d.format.is_dpp16() {
            need(
                super::print::dpp_ctrl_text(t.gen, m.dpp.ctrl).is_some(),
                "that DPP control",
            )?;
        }
        if !d.format.is_dpp16() && !d.format.is_dpp8() {
            need(m.dpp == Dpp::default(), "DPP controls")?;
        }
        need(m.dpp.sel8 < 1 << 24, "DPP8 selects")?;
        need(!m.dpp.fi || t.gen != Gen::Gfx9, "fi")?;
        need(!m.dlc || d.mods.contains(ModSet::DLC), "dlc")?;
        self.check_sources(d, t, strict)?;
        need(m.mem == Default::default(), "memory modifiers")?;
        Ok(d)
    }

    /// Operand kinds per source (from the table) and the VALU constant-bus limit: at most
    /// one scalar value (distinct SGPR, literal, implicit VCC read) on GFX9, two on GFX10+
    /// (one for the 64-bit shifts).
    fn check_sources(&self, d: &EncDesc, t: Target, strict: bool) -> Result<()> {
        use super::tables::{ALLOW_INLINE, ALLOW_LITERAL, ALLOW_SGPR, ALLOW_VGPR};
        let valu = d.format.is_valu();
        let mut sgprs: SmallVec<[u16; 4]> = SmallVec::new();
        let mut literal = false;
        // a literal used at two widths (32 and 64 bits) is two constants to LLVM
        let mut lit_widths: SmallVec<[bool; 2]> = SmallVec::new();
        let mut implicit_vcc_read = false;
        let mut seen_src = false;
        let mut ops = self.operands.iter();
        for od in d.operands {
            if od.implicit.is_some() {
                if seen_src && od.implicit == Some(super::tables::Implicit::Vcc) {
                    implicit_vcc_read = true;
                }
                continue;
            }
            let o = ops.next().expect("operand count checked");
            if strict
                && od.allow & super::tables::NULL_ONLY != 0
                && *o != Operand::Reg(super::reg::Reg::null())
            {
                return Err(Error::bad(format!(
                    "{} needs null in {:?}",
                    d.mnemonic, od.field
                )));
            }
            let is_src = matches!(
                od.field,
                Field::Src0 | Field::Src1 | Field::Src2 | Field::Ssrc0 | Field::Ssrc1
            );
            if !is_src || od.imm.is_some() {
                continue;
            }
            seen_src = true;
            let kind = match o {
                Operand::Reg(r) if r.base.is_vgpr() => ALLOW_VGPR,
                Operand::Reg(r) => {
                    if !sgprs.contains(&r.base.0) {
                        sgprs.push(r.base.0);
                    }
                    ALLOW_SGPR
                }
                Operand::Inline(_) => ALLOW_INLINE,
                Operand::Literal(v)
                    if strict
                        && matches!(
                            od.ty,
                            super::tables::ValTy::F16 | super::tables::ValTy::I16
                        )
                        && *v > 0xffff =>
                {
                    return Err(Error::range(format!("literal {v:#x} for a 16-bit operand")));
                }
                _ => {
                    literal = true;
                    let wide = od.ty == super::tables::ValTy::B64;
                    if !lit_widths.contains(&wide) {
                        lit_widths.push(wide);
                    }
                    ALLOW_LITERAL
                }
            };
            if strict
                && kind == ALLOW_LITERAL
                && od.ty == super::tables::ValTy::B64
                && d.format.is_vop3()
            {
                let bit = match od.field {
                    Field::Src0 => 1,
                    Field::Src1 => 2,
                    _ => 4,
                };
                if (self.mods.abs | self.mods.neg) & bit != 0 {
                    return Err(Error::bad("a 64-bit literal cannot take abs/neg"));
                }
            }
            // the src_* special registers are not in the SGPR file the probes tested
            let special = matches!(o, Operand::Reg(r) if (235..=254).contains(&r.base.0) || r.base == super::reg::PhysReg::NULL);
            if (if strict { od.allow_asm } else { od.allow }) & kind == 0 && !(special && !strict) {
                return Err(Error::bad(format!(
                    "{} does not take that kind of operand in {:?}",
                    d.mnemonic, od.field
                )));
            }
        }
        let f = d.format;
        if literal
            && (f.is_sdwa()
                || f.is_dpp16()
                || f.is_dpp8()
                || (f == Format::Vop3 && t.gen == Gen::Gfx9))
        {
            return Err(Error::bad(format!("{} cannot take a literal", d.mnemonic)));
        }
        if valu && strict {
            let shift64 = matches!(
                self.op,
                Opcode::VLshlrevB64 | Opcode::VLshrrevB64 | Opcode::VAshrrevI64
            );
            let limit = if shift64 { 1 } else { t.info().constant_bus };
            // an unprinted VCC read (v_div_fmas): the opcode reads VCC, the encoding has no
            // explicit lane-mask source and no printed vcc
            let has_mask_src = d
                .explicit()
                .any(|o| o.size == 0 && matches!(o.field, Field::Src2 | Field::Src1 | Field::Src0));
            let vcc_read = implicit_vcc_read
                || (self.op.props().contains(super::tables::Props::READS_VCC)
                    && !has_mask_src
                    && !d.operands.iter().any(|o| o.implicit.is_some())
                    && d.format.is_vop3());
            let vcc_counted = sgprs.contains(&super::reg::PhysReg::VCC_LO.0);
            let used = sgprs.len() + lit_widths.len() + (vcc_read && !vcc_counted) as usize;
            if used > limit {
                return Err(Error::bad(format!(
                    "{} reads {used} scalar values; the constant bus allows {limit}",
                    d.mnemonic
                )));
            }
        }
        Ok(())
    }
}

/// The register file a register field encodes: `Some(true)` VGPRs only, `Some(false)`
/// scalar registers only (SGPRs and the special registers), `None` either (the VALU
/// sources, whose 9-bit codes hold both). A register of the other file has no code in
/// the field: encoding it would spill into the neighbouring bits or name another register.
fn register_file(d: &EncDesc, od: &tables::OpDesc) -> Option<bool> {
    match od.field {
        Field::Sdst
        | Field::Ssrc0
        | Field::Ssrc1
        | Field::Sdata
        | Field::Sbase
        | Field::Srsrc
        | Field::Soffset
        | Field::Saddr
        | Field::Ssamp => Some(false),
        // compare masks and readlane results: an SGPR in the 8-bit VDST field
        Field::Vdst => Some(!od.sgpr),
        // SDWA's SRC1 field has an SGPR bit of its own (S1)
        Field::Vsrc1 if d.format.is_sdwa() => None,
        Field::Vsrc1
        | Field::Vsrc0
        | Field::Vsrc2
        | Field::Vsrc3
        | Field::Addr
        | Field::Data0
        | Field::Data1
        | Field::Vaddr
        | Field::Vdata => Some(true),
        _ => None,
    }
}
