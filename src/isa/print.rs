//! Printing an `Inst` in exactly the text `llvm-mc-19 -disassemble` prints.
//!
//! Driven by the table: the mnemonic as LLVM spells it, then the operands in table order
//! (implicit registers included, lane masks sized by the wave), then modifiers in LLVM's
//! order: SMEM `glc dlc`; VOP3 `op_sel:[..] clamp mul:2`; VOP3P `op_sel:[..]
//! op_sel_hi:[..] neg_lo:[..] neg_hi:[..] clamp`.

use super::error::{Error, Result};
use super::inst::Inst;
use super::operand::{inline_text, literal_text, Operand};
use super::reg::{Reg, RegDisplay};
use super::simm16;
use super::tables::{EncDesc, Field, Format, ImmKind, Implicit, OpDesc};
use super::target::{Gen, Target, Wave};
use std::fmt::Write;

fn src_index(f: Field) -> Option<usize> {
    match f {
        Field::Src0 => Some(0),
        Field::Src1 => Some(1),
        Field::Src2 => Some(2),
        _ => None,
    }
}

fn implicit_text(t: Target, r: Implicit) -> &'static str {
    let wide = t.gen == Gen::Gfx9 || t.wave == Wave::W64;
    match r {
        Implicit::Vcc if wide => "vcc",
        Implicit::Vcc => "vcc_lo",
        Implicit::Exec if wide => "exec",
        Implicit::Exec => "exec_lo",
        Implicit::M0 => "m0",
        Implicit::Scc => "scc",
    }
}

fn imm_text(t: Target, kind: ImmKind, o: &Operand, branch: bool) -> Result<String> {
    let v = match *o {
        Operand::Imm(v) => v,
        Operand::Label(l) => return Ok(format!("L{l}")),
        Operand::Literal(v) => return Ok(format!("{v:#x}")),
        Operand::Symbol(s) => return Ok(format!("S{s}")),
        _ => return Err(Error::bad("immediate expected")),
    };
    Ok(match kind {
        ImmKind::Hex | ImmKind::Imm | ImmKind::Lit => format!("{v:#x}"),
        // branch offsets print as unsigned decimal; other counts as decimal up to 64, else hex
        ImmKind::Udec | ImmKind::Opt if branch || v <= 64 => v.to_string(),
        ImmKind::Udec | ImmKind::Opt => format!("{v:#x}"),
        ImmKind::Sdec => (v as u16 as i16).to_string(),
        ImmKind::Waitcnt => simm16::print_waitcnt(t.gen, v),
        ImmKind::Delay => simm16::print_delay(v).ok_or_else(|| Error::bad("s_delay_alu value"))?,
        ImmKind::GprIdx => simm16::print_gpr_idx(v).unwrap_or_else(|| format!("{v:#x}")),
        ImmKind::Hwreg | ImmKind::Sendmsg | ImmKind::Depctr => {
            return Err(Error::bad(format!(
                "printing {kind:?} operands is not implemented"
            )))
        }
    })
}

fn operand_text(t: Target, d: &EncDesc, od: &OpDesc, o: &Operand, inst: &Inst) -> Result<String> {
    if od.field == Field::Offset && t.gen == Gen::Gfx11 && *o == Operand::Imm(0) {
        // LLVM prints a zero GFX11 SMEM offset with a null soffset as `null`
        return Ok("null".into());
    }
    if let (Field::Offset, Operand::Imm(v)) = (od.field, o) {
        return Ok(signed21(*v));
    }
    if let (Field::Offset, Operand::Reg(r)) = (od.field, o) {
        return Ok(RegDisplay {
            gen: t.gen,
            reg: *r,
        }
        .to_string());
    }
    if let (Some(ImmKind::Imm), Field::Sdata, Operand::Imm(v)) = (od.imm, od.field, o) {
        return Ok(v.to_string());
    }
    if let Some(k) = od.imm {
        return imm_text(
            t,
            k,
            o,
            inst.op.props().contains(super::tables::Props::BRANCH),
        );
    }
    let core = match *o {
        Operand::Reg(r) => RegDisplay { gen: t.gen, reg: r }.to_string(),
        Operand::Inline(c) => inline_text(c, od.ty),
        Operand::Literal(v) => literal_text(v, od.ty),
        Operand::Symbol(s) => format!("S{s}"),
        _ => return Err(Error::bad("register or constant expected")),
    };
    let Some(i) = src_index(od.field) else {
        return Ok(core);
    };
    let bit = 1u8 << i;
    let (abs, neg) = match d.format {
        Format::Vop3 => (inst.mods.abs & bit != 0, inst.mods.neg & bit != 0),
        _ => (false, false),
    };
    let is_const = !matches!(o, Operand::Reg(_));
    if neg && d.sext_mask & bit != 0 {
        return Ok(format!("sext({core})"));
    }
    Ok(match (neg, abs) {
        (false, false) => core,
        (false, true) => format!("|{core}|"),
        (true, true) => format!("-|{core}|"),
        (true, false) if is_const => format!("neg({core})"),
        (true, false) => format!("-{core}"),
    })
}

/// A 21-bit signed byte offset as LLVM prints it (`0x40`, `-0x40`).
fn signed21(v: u32) -> String {
    if v & (1 << 20) != 0 {
        format!("-{:#x}", (1u32 << 21) - v)
    } else {
        format!("{v:#x}")
    }
}

fn bits(mask: u8, n: usize) -> String {
    let v: Vec<String> = (0..n).map(|i| ((mask >> i) & 1).to_string()).collect();
    format!("[{}]", v.join(","))
}

/// LLVM's text for `inst` on `t`.
pub fn print(inst: &Inst, t: Target) -> Result<String> {
    let d = inst.verify(t)?;
    let mut s = String::from(d.mnemonic);
    let mut explicit = inst.operands.iter();
    let mut first = true;
    let mut nsrc = 0;
    for od in d.operands {
        let text = if let Some(r) = od.implicit {
            implicit_text(t, r).to_string()
        } else {
            let o = explicit
                .next()
                .ok_or_else(|| Error::bad("too few operands"))?;
            if od.imm == Some(ImmKind::Opt) && *o == Operand::Imm(0) {
                continue;
            }
            if src_index(od.field).is_some() {
                nsrc += 1;
            }
            operand_text(t, d, od, o, inst)?
        };
        s.push_str(if first { " " } else { ", " });
        first = false;
        s.push_str(&text);
    }
    let m = &inst.mods;
    match d.format {
        Format::Smem => {
            if m.offset != 0 {
                write!(s, " offset:{}", signed21(m.offset)).unwrap();
            }
            if m.glc {
                s.push_str(" glc");
            }
            if m.dlc {
                s.push_str(" dlc");
            }
        }
        Format::Vop3 => {
            if m.op_sel != 0 {
                // sources then the destination bit (bit 3)
                let mut v: Vec<String> = (0..nsrc)
                    .map(|i| ((m.op_sel >> i) & 1).to_string())
                    .collect();
                v.push(((m.op_sel >> 3) & 1).to_string());
                write!(s, " op_sel:[{}]", v.join(",")).unwrap();
            }
            if m.clamp {
                s.push_str(" clamp");
            }
            match m.omod {
                1 => s.push_str(" mul:2"),
                2 => s.push_str(" mul:4"),
                3 => s.push_str(" div:2"),
                _ => {}
            }
        }
        Format::Vop3p => {
            let full = (1u8 << nsrc) - 1;
            if m.op_sel & full != 0 {
                write!(s, " op_sel:{}", bits(m.op_sel, nsrc)).unwrap();
            }
            if m.op_sel_hi & full != full {
                write!(s, " op_sel_hi:{}", bits(m.op_sel_hi, nsrc)).unwrap();
            }
            if m.neg & full != 0 {
                write!(s, " neg_lo:{}", bits(m.neg, nsrc)).unwrap();
            }
            if m.neg_hi & full != 0 {
                write!(s, " neg_hi:{}", bits(m.neg_hi, nsrc)).unwrap();
            }
            if m.clamp {
                s.push_str(" clamp");
            }
        }
        _ => {}
    }
    Ok(s)
}

/// Register text (for diagnostics and tools).
pub fn reg_text(gen: Gen, r: Reg) -> String {
    RegDisplay { gen, reg: r }.to_string()
}
