//! VOP3 (64 bits + literal on GFX10+). Word 0: `prefix op[25:16] clamp[15]` then either
//! VOP3a `op_sel[14:11] abs[10:8]` or VOP3b `sdst[14:8]`, and `vdst[7:0]`; word 1:
//! `neg[31:29] omod[28:27] src2[26:18] src1[17:9] src0[8:0]`.
//! Prefix: GFX9 110100 (opcodes below 0x380; 0x380.. is VOP3P), GFX10/GFX11 110101.
//! GFX9 has no VOP3 literal; GFX10+ allows one 32-bit literal in any source. On GFX11 a
//! src0 of 0xfa/0xe9/0xea means VOP3-DPP (see dpp.rs).

use super::sop2::lookup;
use super::vop1::{dec_vdst, vdst};
use super::{collect, word, Dec, Enc};
use crate::isa::error::{Error, Result};
use crate::isa::inst::Inst;
use crate::isa::tables::{EncDesc, Field, Format};
use crate::isa::target::Gen;

pub fn prefix(gen: Gen) -> u32 {
    match gen {
        Gen::Gfx9 => 0b110100 << 26,
        _ => 0b110101 << 26,
    }
}

/// The two VOP3 words; `src0_code` overrides the src0 field (VOP3-DPP).
pub(super) fn words(
    cx: &mut Enc,
    d: &EncDesc,
    inst: &Inst,
    src0_code: Option<u32>,
) -> Result<(u32, u32)> {
    let mut w0 = prefix(cx.t.gen) | (d.op as u32) << 16;
    let mut w1 = 0u32;
    for (od, o) in d.explicit().zip(&inst.operands) {
        match od.field {
            Field::Vdst => w0 |= vdst(cx, o)?,
            Field::Sdst => w0 |= (cx.dst(o)? as u32) << 8,
            Field::Src0 => w1 |= src0_code.map_or_else(|| cx.src(o).map(u32::from), Ok)?,
            Field::Src1 => w1 |= (cx.src(o)? as u32) << 9,
            Field::Src2 => w1 |= (cx.src(o)? as u32) << 18,
            f => unreachable!("VOP3 field {f:?}"),
        }
    }
    if cx.literal.is_some() && cx.t.gen == Gen::Gfx9 {
        return Err(Error::bad("GFX9 VOP3 cannot take a literal"));
    }
    if cx.literal.is_some() && src0_code.is_some() {
        return Err(Error::bad("VOP3-DPP cannot take a literal"));
    }
    let m = &inst.mods;
    if !d.vop3b {
        w0 |= (m.op_sel as u32 & 0xf) << 11 | (m.abs as u32 & 7) << 8;
    }
    w0 |= (m.clamp as u32) << 15;
    w1 |= (m.neg as u32 & 7) << 29 | (m.omod as u32 & 3) << 27;
    Ok((w0, w1))
}

pub fn encode(cx: &mut Enc, d: &EncDesc, inst: &Inst) -> Result<()> {
    let (w0, w1) = words(cx, d, inst, None)?;
    cx.words.push(w0);
    cx.words.push(w1);
    cx.finish();
    Ok(())
}

pub fn decode(cx: &Dec, w: &[u32]) -> Result<(Inst, usize)> {
    let w1 = word(w, 1)?;
    if cx.gen() == Gen::Gfx11 && matches!(w1 & 0x1ff, 0xfa | 0xe9 | 0xea) {
        return super::dpp::decode_vop3(cx, w);
    }
    let (inst, _) = decode_as(cx, w, Format::Vop3, None)?;
    let lit = inst.operands.iter().any(|o| o.is_literal());
    Ok((inst, if lit { 3 } else { 2 }))
}

/// Decodes the VOP3 words as format `f`; `src0_code` replaces the src0 field (VOP3-DPP).
pub(super) fn decode_as(
    cx: &Dec,
    w: &[u32],
    f: Format,
    src0_code: Option<u16>,
) -> Result<(Inst, &'static EncDesc)> {
    let w0 = word(w, 0)?;
    let w1 = word(w, 1)?;
    let d = lookup(cx, f, (w0 >> 16) & 0x3ff)?;
    let ops = collect(d, |od| {
        let code = match od.field {
            Field::Vdst => return dec_vdst(cx, od, w0 & 0xff),
            Field::Sdst => return cx.reg(od, ((w0 >> 8) & 0x7f) as u16),
            Field::Src0 => match src0_code {
                Some(c) => return cx.reg(od, c),
                None => w1 & 0x1ff,
            },
            Field::Src1 => (w1 >> 9) & 0x1ff,
            _ => (w1 >> 18) & 0x1ff,
        };
        if code == 255 && (cx.gen() == Gen::Gfx9 || src0_code.is_some()) {
            return Err(Error::invalid("literal in a GFX9 VOP3 or a VOP3-DPP"));
        }
        cx.src(od, code as u16, w, 2)
    })?;
    let mut inst = Inst::new(d.opcode, d.format, &ops);
    let m = &mut inst.mods;
    let no_mods = d.abs_mask | d.neg_mask | d.sext_mask == 0
        && !d.mods.contains(crate::isa::tables::ModSet::OP_SEL);
    if no_mods && !d.vop3b && ((w0 >> 8) & 7 != 0 || w1 >> 29 != 0) {
        // instructions without source modifiers fix abs/neg to zero (op_sel is ignored)
        return Err(Error::invalid(
            "source modifiers on an instruction without them",
        ));
    }
    if !d.vop3b {
        // LLVM ignores op_sel and abs bits an instruction does not have
        if super::super::print::permlane_op_sel(d) {
            m.op_sel = ((w0 >> 11) & 3) as u8;
        } else {
            m.op_sel = ((w0 >> 11) & 0xf) as u8 & d.opsel_mask;
        }
        m.abs = ((w0 >> 8) & 7) as u8 & d.abs_mask;
    }
    m.clamp = (w0 >> 15) & 1 == 1;
    // neg bits: on an absent source the encoding is invalid; on a source without neg
    // (integer operands) LLVM ignores them
    let srcs = d.explicit().fold(0u8, |a, o| match o.field {
        Field::Src0 => a | 1,
        Field::Src1 => a | 2,
        Field::Src2 => a | 4,
        _ => a,
    });
    let neg = ((w1 >> 29) & 7) as u8;
    if neg & !srcs != 0 {
        return Err(Error::invalid("neg on an absent source"));
    }
    if d.vop3b && neg != 0 && d.neg_mask | d.sext_mask == 0 {
        return Err(Error::invalid("neg on a VOP3b instruction without it"));
    }
    m.neg = neg & (d.neg_mask | d.sext_mask);
    m.omod = ((w1 >> 27) & 3) as u8;
    Ok((inst, d))
}
