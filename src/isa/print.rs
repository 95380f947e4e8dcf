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
        Field::Src1 | Field::Vsrc1 => Some(1),
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
        ImmKind::Opt => v.to_string(),
        ImmKind::Udec if branch || v <= 64 => v.to_string(),
        ImmKind::Udec => format!("{v:#x}"),
        ImmKind::Sdec => (v as u16 as i16).to_string(),
        ImmKind::Waitcnt => simm16::print_waitcnt(t.gen, v),
        ImmKind::Delay => simm16::print_delay(v),
        ImmKind::GprIdx => simm16::print_gpr_idx(v).unwrap_or_else(|| format!("{v:#x}")),
        ImmKind::Hwreg => simm16::print_hwreg(t.gen, v),
        ImmKind::Sendmsg => simm16::print_sendmsg(t.gen, v),
        ImmKind::Depctr => simm16::print_depctr(v),
    })
}

fn operand_text(t: Target, d: &EncDesc, od: &OpDesc, o: &Operand, inst: &Inst) -> Result<String> {
    if od.field == Field::Offset && t.gen != Gen::Gfx9 && *o == Operand::Imm(0) {
        // LLVM prints a zero GFX10/GFX11 SMEM offset with a null soffset as `null` (GFX9 has
        // no soffset field in that form: `0x0`)
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
        // s_atc_probe's mode: an inline-range integer in decimal, else hex
        return Ok(if *v <= 64 {
            v.to_string()
        } else {
            format!("{v:#x}")
        });
    }
    if let Some(k) = od.imm {
        if let (Operand::Imm(v), "s_version") = (o, inst.op.name()) {
            return Ok(simm16::print_version(*v));
        }
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
    let f = d.format;
    let (abs, neg) = if f.is_vop3() || f.is_sdwa() || f.is_dpp16() {
        (inst.mods.abs & bit != 0, inst.mods.neg & bit != 0)
    } else if f == Format::Vop3p && inst.op.is_mix() {
        // the mix instructions print neg_hi as |x| and neg_lo as -x
        (inst.mods.neg_hi & bit != 0, inst.mods.neg & bit != 0)
    } else {
        (false, false)
    };
    let is_const = !matches!(o, Operand::Reg(_));
    if f.is_sdwa() && inst.mods.sdwa.sext & bit != 0 {
        return Ok(format!("sext({core})"));
    }
    if f.is_vop3() && neg && d.sext_mask & bit != 0 {
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
    if inst.format == Format::VopdX && inst.op_y.is_some() {
        inst.check_printable(t)?;
        let (x, y) = inst.vopd_halves(t.gen)?;
        return Ok(format!("{} :: {}", print(&x, t)?, print(&y, t)?));
    }
    let d = inst.check_printable(t)?;
    if d.format.is_mem() {
        return super::format::mem::print(inst, d, t);
    }
    let mut s = String::from(d.mnemonic);
    let mut explicit = inst.operands.iter();
    let mut first = true;
    let mut nsrc = 0;
    for od in d.operands {
        let text = if let Some(r) = od.implicit {
            match (d.format, inst.mods.sdwa.sdst) {
                (Format::VopcSdwa, Some(r)) => RegDisplay { gen: t.gen, reg: r }.to_string(),
                _ => implicit_text(t, r).to_string(),
            }
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
        f if f.is_vop3() || f.is_sdwa() => {
            if permlane_op_sel(d) {
                // v_permlane16/x16 use op_sel bits 0/1 as fi / bound_ctrl: two elements
                if m.op_sel & 3 != 0 {
                    write!(s, " op_sel:[{},{}]", m.op_sel & 1, (m.op_sel >> 1) & 1).unwrap();
                }
            } else if m.op_sel != 0 {
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
            ext_suffix(&mut s, inst, d, t);
        }
        Format::Vop3p => {
            let full = (1u8 << nsrc) - 1;
            if m.op_sel & full != 0 {
                write!(s, " op_sel:{}", bits(m.op_sel, nsrc)).unwrap();
            }
            let mix = inst.op.is_mix();
            let hi_default = if mix { 0 } else { full };
            if m.op_sel_hi & full != hi_default {
                write!(s, " op_sel_hi:{}", bits(m.op_sel_hi, nsrc)).unwrap();
            }
            if m.neg & full != 0 && !mix {
                write!(s, " neg_lo:{}", bits(m.neg, nsrc)).unwrap();
            }
            if m.neg_hi & full != 0 && !mix {
                write!(s, " neg_hi:{}", bits(m.neg_hi, nsrc)).unwrap();
            }
            if m.clamp {
                s.push_str(" clamp");
            }
        }
        f if f.is_dpp16() || f.is_dpp8() => ext_suffix(&mut s, inst, d, t),
        _ => {}
    }
    Ok(s)
}

/// Register text (for diagnostics and tools).
pub fn reg_text(gen: Gen, r: Reg) -> String {
    RegDisplay { gen, reg: r }.to_string()
}

/// LLVM's text for a DPP16 control on `gen`, None when the generation lacks it.
pub fn dpp_ctrl_text(gen: Gen, c: u16) -> Option<String> {
    let gfx9 = gen == Gen::Gfx9;
    Some(match c {
        0x000..=0x0ff => format!(
            "quad_perm:[{},{},{},{}]",
            c & 3,
            (c >> 2) & 3,
            (c >> 4) & 3,
            (c >> 6) & 3
        ),
        0x101..=0x10f => format!("row_shl:{}", c & 0xf),
        0x111..=0x11f => format!("row_shr:{}", c & 0xf),
        0x121..=0x12f => format!("row_ror:{}", c & 0xf),
        0x130 if gfx9 => "wave_shl:1".into(),
        0x134 if gfx9 => "wave_rol:1".into(),
        0x138 if gfx9 => "wave_shr:1".into(),
        0x13c if gfx9 => "wave_ror:1".into(),
        0x140 => "row_mirror".into(),
        0x141 => "row_half_mirror".into(),
        0x142 if gfx9 => "row_bcast:15".into(),
        0x143 if gfx9 => "row_bcast:31".into(),
        0x150..=0x15f if !gfx9 => format!("row_share:{}", c & 0xf),
        0x160..=0x16f if !gfx9 => format!("row_xmask:{}", c & 0xf),
        _ => return None,
    })
}

const SEL: [&str; 7] = [
    "BYTE_0", "BYTE_1", "BYTE_2", "BYTE_3", "WORD_0", "WORD_1", "DWORD",
];
const UNUSED: [&str; 3] = ["UNUSED_PAD", "UNUSED_SEXT", "UNUSED_PRESERVE"];

/// SDWA select name (index 0..=6).
pub fn sdwa_sel_name(i: u8) -> &'static str {
    SEL[i as usize]
}
pub fn sdwa_sel_index(s: &str) -> Option<u8> {
    SEL.iter().position(|&n| n == s).map(|i| i as u8)
}
pub fn sdwa_unused_name(i: u8) -> &'static str {
    UNUSED[i as usize]
}
pub fn sdwa_unused_index(s: &str) -> Option<u8> {
    UNUSED.iter().position(|&n| n == s).map(|i| i as u8)
}

fn ext_suffix(s: &mut String, inst: &Inst, d: &EncDesc, t: Target) {
    let m = &inst.mods;
    if d.format.is_sdwa() {
        let w = &m.sdwa;
        if d.format != Format::VopcSdwa {
            write!(
                s,
                " dst_sel:{} dst_unused:{}",
                SEL[w.dst_sel as usize], UNUSED[w.dst_unused as usize]
            )
            .unwrap();
        }
        write!(s, " src0_sel:{}", SEL[w.src0_sel as usize]).unwrap();
        if d.slot(Field::Vsrc1).is_some() {
            write!(s, " src1_sel:{}", SEL[w.src1_sel as usize]).unwrap();
        }
    } else if d.format.is_dpp16() {
        let p = &m.dpp;
        let ctrl = dpp_ctrl_text(t.gen, p.ctrl).unwrap_or_default();
        write!(
            s,
            " {ctrl} row_mask:{:#x} bank_mask:{:#x}",
            p.row_mask, p.bank_mask
        )
        .unwrap();
        if p.bound_ctrl {
            s.push_str(" bound_ctrl:1");
        }
        if p.fi {
            s.push_str(" fi:1");
        }
    } else if d.format.is_dpp8() {
        let p = &m.dpp;
        let v: Vec<String> = (0..8)
            .map(|i| ((p.sel8 >> (3 * i)) & 7).to_string())
            .collect();
        write!(s, " dpp8:[{}]", v.join(",")).unwrap();
        if p.fi {
            s.push_str(" fi:1");
        }
    }
}

/// v_permlane16_b32 / v_permlanex16_b32: op_sel carries fi and bound_ctrl, printed as
/// a two-element list.
pub fn permlane_op_sel(d: &EncDesc) -> bool {
    d.mnemonic.starts_with("v_permlane") && d.format.is_vop3()
}
