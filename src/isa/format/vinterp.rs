//! VINTERP (GFX11), 64 bits. Word 0: `11001101 op[22:16] clamp[15] op_sel[14:11]
//! wait_exp[10:8] vdst[7:0]`; word 1: `neg[31:29] src2[26:18] src1[17:9] src0[8:0]`
//! (VGPR sources only). Modifiers print as `clamp op_sel:[..] wait_exp:N` (always); LDSDIR's
//! `wait_vdst:N` (always printed) shares the printer.

use super::mem::{vreg, want_v};
use super::sop2::lookup;
use super::{word, Dec, Enc};
use crate::isa::error::{Error, Result};
use crate::isa::inst::Inst;
use crate::isa::operand::Operand;
use crate::isa::tables::{EncDesc, Field, Format};
use crate::isa::target::Target;

pub const PREFIX: u32 = 0xcd << 24;

pub fn check(inst: &Inst, d: &EncDesc, _t: Target) -> Result<()> {
    for o in &inst.operands {
        want_v(o, 1, "operand")?;
    }
    let m = &inst.mods;
    let rest = super::mem::MemMods {
        wait: m.mem.wait,
        ..Default::default()
    };
    // only the f16 forms take op_sel (LLVM rejects it on the f32 ones)
    super::mem::flag(m.op_sel == 0 || d.mnemonic.contains("f16"), "op_sel", d)?;
    super::mem::flag(
        m.mem == rest && m.mem.wait < 8 && m.neg < 8 && m.op_sel < 16 && !m.glc && !m.dlc,
        "modifiers",
        d,
    )
}

fn code(o: &Operand) -> u32 {
    match o {
        Operand::Reg(r) => r.base.0 as u32,
        _ => 0,
    }
}

pub fn encode(cx: &mut Enc, d: &EncDesc, inst: &Inst) -> Result<()> {
    let m = &inst.mods;
    let mut w0 = PREFIX | (d.op as u32) << 16 | (m.clamp as u32) << 15;
    w0 |= (m.op_sel as u32) << 11 | (m.mem.wait as u32) << 8;
    let mut w1 = (m.neg as u32) << 29;
    for (od, o) in d.explicit().zip(&inst.operands) {
        match od.field {
            Field::Vdst => w0 |= code(o) - 256,
            Field::Src0 => w1 |= code(o),
            Field::Src1 => w1 |= code(o) << 9,
            _ => w1 |= code(o) << 18,
        }
    }
    cx.words.push(w0);
    cx.words.push(w1);
    Ok(())
}

pub fn decode(cx: &Dec, w: &[u32]) -> Result<(Inst, usize)> {
    let (w0, w1) = (word(w, 0)?, word(w, 1)?);
    let d = lookup(cx, Format::Vinterp, (w0 >> 16) & 0x7f)?;
    let mut ops = Vec::new();
    for od in d.explicit() {
        let c = match od.field {
            Field::Vdst => 256 + (w0 & 0xff),
            Field::Src0 => w1 & 0x1ff,
            Field::Src1 => (w1 >> 9) & 0x1ff,
            _ => (w1 >> 18) & 0x1ff,
        };
        if c < 256 {
            return Err(Error::invalid("VINTERP sources are VGPRs"));
        }
        ops.push(vreg(c - 256, 1)?);
    }
    let mut inst = Inst::new(d.opcode, d.format, &ops);
    inst.mods.clamp = (w0 >> 15) & 1 == 1;
    inst.mods.op_sel = ((w0 >> 11) & 0xf) as u8;
    inst.mods.mem.wait = ((w0 >> 8) & 7) as u8;
    inst.mods.neg = ((w1 >> 29) & 7) as u8;
    super::mem::check(&inst, d, cx.t).map_err(|e| Error::invalid(e.to_string()))?;
    Ok((inst, 2))
}

pub fn print_mods(inst: &Inst, d: &EncDesc, s: &mut String) {
    let m = &inst.mods;
    if d.format == Format::Ldsdir {
        s.push_str(&format!(" wait_vdst:{}", m.mem.wait));
        return;
    }
    if m.clamp {
        s.push_str(" clamp");
    }
    if m.op_sel != 0 {
        let b: Vec<String> = (0..4).map(|i| ((m.op_sel >> i) & 1).to_string()).collect();
        s.push_str(&format!(" op_sel:[{}]", b.join(",")));
    }
    s.push_str(&format!(" wait_exp:{}", m.mem.wait));
}
