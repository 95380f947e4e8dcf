//! VOP3P (64 bits + literal on GFX10+). Word 0: `prefix op[22:16] clamp[15]
//! op_sel_hi2[14] op_sel[13:11] neg_hi[10:8] vdst[7:0]`; word 1: `neg[31:29]
//! op_sel_hi[28:27] src2[26:18] src1[17:9] src0[8:0]`.
//! Prefix (bits 31:23): GFX9 110100111, GFX10/GFX11 110011000.

use super::sop2::{finish, lookup};
use super::vop1::{dec_vdst, vdst};
use super::{collect, word, Dec, Enc};
use crate::isa::error::{Error, Result};
use crate::isa::inst::Inst;
use crate::isa::operand::Operand;
use crate::isa::tables::{EncDesc, Field, Format, ModSet};
use crate::isa::target::Gen;

pub fn prefix(gen: Gen) -> u32 {
    match gen {
        Gen::Gfx9 => 0b110100111 << 23,
        _ => 0b110011000 << 23,
    }
}

pub fn encode(cx: &mut Enc, d: &EncDesc, inst: &Inst) -> Result<()> {
    let mut w0 = prefix(cx.t.gen) | (d.op as u32) << 16;
    let mut w1 = 0u32;
    for (od, o) in d.explicit().zip(&inst.operands) {
        match od.field {
            Field::Vdst => w0 |= vdst(cx, o)?,
            Field::Src0 => w1 |= cx.src(o)? as u32,
            Field::Src1 => w1 |= (cx.src(o)? as u32) << 9,
            Field::Src2 => w1 |= (cx.src(o)? as u32) << 18,
            f => unreachable!("VOP3P field {f:?}"),
        }
    }
    if cx.literal.is_some() && cx.t.gen == Gen::Gfx9 {
        return Err(Error::bad("GFX9 VOP3P cannot take a literal"));
    }
    let m = &inst.mods;
    w0 |= (m.clamp as u32) << 15
        | ((m.op_sel_hi as u32 >> 2) & 1) << 14
        | (m.op_sel as u32 & 7) << 11
        | (m.neg_hi as u32 & 7) << 8;
    w1 |= (m.neg as u32 & 7) << 29 | (m.op_sel_hi as u32 & 3) << 27;
    cx.words.push(w0);
    cx.words.push(w1);
    cx.finish();
    Ok(())
}

pub fn decode(cx: &Dec, w: &[u32]) -> Result<(Inst, usize)> {
    let w0 = word(w, 0)?;
    let w1 = word(w, 1)?;
    let d = lookup(cx, Format::Vop3p, (w0 >> 16) & 0x7f)?;
    let mut lit = false;
    let ops = collect(d, |od| {
        let code = match od.field {
            Field::Vdst => return dec_vdst(cx, od, w0 & 0xff),
            Field::Src0 => w1 & 0x1ff,
            Field::Src1 => (w1 >> 9) & 0x1ff,
            _ => (w1 >> 18) & 0x1ff,
        };
        if code == 255 {
            if cx.gen() == Gen::Gfx9 {
                return Err(Error::invalid("literal in a GFX9 VOP3P"));
            }
            lit = true;
        }
        cx.src(od, code as u16, w, 2)
    })?;
    let (mut inst, _) = finish(d, ops, false)?;
    if d.opcode.is_mix() {
        // the mix instructions read scalar f16 sources: LLVM keeps a literal's low half
        for (od, o) in d.explicit().zip(inst.operands.iter_mut()) {
            if let (crate::isa::tables::ValTy::F16, Operand::Literal(v)) = (od.ty, *o) {
                *o = Operand::Literal(v & 0xffff);
            }
        }
    }
    let m = &mut inst.mods;
    m.clamp = (w0 >> 15) & 1 == 1;
    m.op_sel_hi = (((w0 >> 14) & 1) << 2 | (w1 >> 27) & 3) as u8;
    if !d.opcode.is_mix() {
        // LLVM's decoder ignores op_sel_hi on absent sources, and on instructions without
        // op_sel (WMMA): the value reads back as the default (set), as the printer omits it
        let present = d.explicit().fold(0u8, |a, o| match o.field {
            Field::Src0 => a | 1,
            Field::Src1 => a | 2,
            Field::Src2 => a | 4,
            _ => a,
        });
        m.op_sel_hi |= !present & 7;
        if !d.mods.contains(ModSet::OP_SEL) {
            m.op_sel_hi = 7;
        }
    }
    m.op_sel = ((w0 >> 11) & 7) as u8;
    m.neg_hi = ((w0 >> 8) & 7) as u8;
    m.neg = ((w1 >> 29) & 7) as u8;
    Ok((inst, if lit { 3 } else { 2 }))
}
