//! DPP. DPP16: src0 = 0xfa and a dword `row_mask[31:28] bank_mask[27:24] src1_abs[23]
//! src1_neg[22] src0_abs[21] src0_neg[20] bound_ctrl[19] fi[18] dpp_ctrl[16:8] src0[7:0]`.
//! DPP8 (GFX10+): src0 = 0xe9 (0xea: fi=1) and a dword `sel7..sel0[31:8] src0[7:0]`.
//! On VOP1/VOP2/VOPC words (every generation for DPP16) and, on GFX11, on VOP3 words
//! (`_e64_dpp`, three dwords; source modifiers then live in the VOP3 word).

use super::sdwa::e32_word;
use super::sop2::lookup;
use super::vop1::{dec_vdst, vdst};
use super::vop2::vgpr8;
use super::{collect, word, Dec, Enc};
use crate::isa::error::{Error, Result};
use crate::isa::inst::Inst;
use crate::isa::tables::{EncDesc, Field, Format};
use crate::isa::target::Gen;

fn dword(inst: &Inst, src0: u32, with_mods: bool) -> u32 {
    let m = &inst.mods;
    let p = &m.dpp;
    let mut d = src0 | (p.ctrl as u32) << 8 | (p.fi as u32) << 18 | (p.bound_ctrl as u32) << 19;
    d |= (p.bank_mask as u32) << 24 | (p.row_mask as u32) << 28;
    if with_mods {
        d |= (m.neg as u32 & 1) << 20
            | (m.abs as u32 & 1) << 21
            | (m.neg as u32 >> 1 & 1) << 22
            | (m.abs as u32 >> 1 & 1) << 23;
    }
    d
}

fn src0_vgpr(inst: &Inst, d: &EncDesc) -> Result<u32> {
    let o = super::need(inst, d, Field::Src0)?;
    vgpr8(o).map_err(|_| Error::bad("the DPP source must be a VGPR"))
}

pub fn encode(cx: &mut Enc, d: &EncDesc, inst: &Inst) -> Result<()> {
    let (mut vd, mut v1) = (0, 0);
    for (od, o) in d.explicit().zip(&inst.operands) {
        match od.field {
            Field::Vdst => vd = vdst(cx, o)?,
            Field::Vsrc1 => v1 = vgpr8(o)?,
            _ => {}
        }
    }
    let s0 = src0_vgpr(inst, d)?;
    if d.format.is_dpp8() {
        let code = if inst.mods.dpp.fi { 0xea } else { 0xe9 };
        cx.words.push(e32_word(d.format.base(), d.op, vd, v1, code));
        cx.words.push(s0 | inst.mods.dpp.sel8 << 8);
    } else {
        cx.words.push(e32_word(d.format.base(), d.op, vd, v1, 0xfa));
        cx.words.push(dword(inst, s0, true));
    }
    Ok(())
}

/// GFX11 VOP3 with DPP16/DPP8.
pub fn encode_vop3(cx: &mut Enc, d: &EncDesc, inst: &Inst) -> Result<()> {
    let code = match (d.format.is_dpp8(), inst.mods.dpp.fi) {
        (false, _) => 0xfa,
        (true, false) => 0xe9,
        (true, true) => 0xea,
    };
    let (w0, w1) = super::vop3::words(cx, d, inst, Some(code))?;
    let s0 = src0_vgpr(inst, d)?;
    cx.words.push(w0);
    cx.words.push(w1);
    cx.words.push(if d.format.is_dpp8() {
        s0 | inst.mods.dpp.sel8 << 8
    } else {
        dword(inst, s0, false)
    });
    Ok(())
}

fn set_dpp16(gen: Gen, inst: &mut Inst, d1: u32, with_mods: bool) {
    let m = &mut inst.mods;
    m.dpp.ctrl = ((d1 >> 8) & 0x1ff) as u16;
    m.dpp.fi = (d1 >> 18) & 1 == 1 && gen != Gen::Gfx9; // GFX9 has no fi: LLVM ignores the bit
    m.dpp.bound_ctrl = (d1 >> 19) & 1 == 1;
    m.dpp.bank_mask = ((d1 >> 24) & 0xf) as u8;
    m.dpp.row_mask = (d1 >> 28) as u8;
    if with_mods {
        m.neg = ((d1 >> 20) & 1 | (d1 >> 21) & 2) as u8;
        m.abs = ((d1 >> 21) & 1 | (d1 >> 22) & 2) as u8;
    }
}

/// VOP1/VOP2/VOPC word with src0 = 0xfa / 0xe9 / 0xea.
pub fn decode(cx: &Dec, w: &[u32], base: Format) -> Result<(Inst, usize)> {
    let w0 = word(w, 0)?;
    let d1 = word(w, 1)?;
    let code = w0 & 0x1ff;
    let dpp8 = code != 0xfa;
    if dpp8 && cx.gen() == Gen::Gfx9 {
        return Err(Error::invalid("DPP8 needs GFX10+"));
    }
    let (f, op) = match (base, dpp8) {
        (Format::Vop1, false) => (Format::Vop1Dpp, (w0 >> 9) & 0xff),
        (Format::Vop1, true) => (Format::Vop1Dpp8, (w0 >> 9) & 0xff),
        (Format::Vop2, false) => (Format::Vop2Dpp, (w0 >> 25) & 0x3f),
        (Format::Vop2, true) => (Format::Vop2Dpp8, (w0 >> 25) & 0x3f),
        (_, false) => (Format::VopcDpp, (w0 >> 17) & 0xff),
        (_, true) => (Format::VopcDpp8, (w0 >> 17) & 0xff),
    };
    let d = lookup(cx, f, op)?;
    let ops = collect(d, |od| match od.field {
        Field::Vdst => dec_vdst(cx, od, (w0 >> 17) & 0xff),
        Field::Src0 => cx.reg(od, 256 + (d1 & 0xff) as u16),
        _ => cx.reg(od, 256 + ((w0 >> 9) & 0xff) as u16),
    })?;
    let mut inst = Inst::new(d.opcode, d.format, &ops);
    if dpp8 {
        inst.mods.dpp.sel8 = d1 >> 8;
        inst.mods.dpp.fi = code == 0xea;
    } else {
        set_dpp16(cx.gen(), &mut inst, d1, true);
    }
    Ok((inst, 2))
}

/// GFX11 VOP3 word pair whose src0 is 0xfa / 0xe9 / 0xea, then the DPP dword.
pub fn decode_vop3(cx: &Dec, w: &[u32]) -> Result<(Inst, usize)> {
    let w1 = word(w, 1)?;
    let d2 = word(w, 2)?;
    let code = w1 & 0x1ff;
    let f = if code == 0xfa {
        Format::Vop3Dpp
    } else {
        Format::Vop3Dpp8
    };
    let (mut inst, d) = super::vop3::decode_as(cx, w, f, Some(256 + (d2 & 0xff) as u16))?;
    if f == Format::Vop3Dpp8 {
        inst.mods.dpp.sel8 = d2 >> 8;
        inst.mods.dpp.fi = code == 0xea;
    } else {
        set_dpp16(cx.gen(), &mut inst, d2, false);
    }
    let _ = d;
    Ok((inst, 3))
}
