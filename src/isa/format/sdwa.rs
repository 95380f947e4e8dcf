//! SDWA (GFX9, GFX10): a VOP1/VOP2/VOPC word with src0 = 0xf9, then a dword
//! `s1[31] src1_abs[29] src1_neg[28] src1_sext[27] src1_sel[26:24] s0[23] src0_abs[21]
//! src0_neg[20] src0_sext[19] src0_sel[18:16] omod[15:14] clamp[13] dst_unused[12:11]
//! dst_sel[10:8] src0[7:0]`; VOPC replaces bits 15:8 with `sd[15] sdst[14:8]` (sd = 0:
//! VCC). s0/s1 mark src0 / the VOP2 vsrc1 field as an SGPR or inline-constant code.
//! VOP1 has no src1: its src1 bits are zero (LLVM decodes nothing else), and its `src1_sel`
//! stays at the default DWORD in the instruction value.

use super::sop2::lookup;
use super::vop1::{dec_vdst, vdst};
use super::{collect, word, Dec, Enc};
use crate::isa::error::{Error, Result};
use crate::isa::inst::{Inst, Sdwa};
use crate::isa::operand::Operand;
use crate::isa::reg::encode_code;
use crate::isa::tables::{EncDesc, Field, Format};

/// Bits of the SDWA dword LLVM requires zero in a VOP1 form, which has no src1: `s1`, the
/// src1 abs/neg/sext bits and `src1_sel` (bit 30 is ignored).
const VOP1_ZERO: u32 = 0xbf00_0000;

/// The 32-bit VOP1/VOP2/VOPC word with the given field values.
pub(super) fn e32_word(base: Format, op: u16, vdst: u32, vsrc1: u32, src0: u32) -> u32 {
    let op = op as u32;
    match base {
        Format::Vop1 => 0x3f << 25 | vdst << 17 | op << 9 | src0,
        Format::Vop2 => op << 25 | vdst << 17 | vsrc1 << 9 | src0,
        _ => 0x3e << 25 | op << 17 | vsrc1 << 9 | src0,
    }
}

/// (8-bit field value, scalar flag) of an SDWA source.
fn src(cx: &Enc, o: &Operand) -> Result<(u32, bool)> {
    match *o {
        Operand::Reg(r) if r.base.is_vgpr() => Ok((r.base.0 as u32 - 256, false)),
        Operand::Reg(r) if r.base.0 < 256 => Ok((encode_code(cx.t.gen, r.base) as u32, true)),
        Operand::Inline(c) => Ok((c as u32, true)),
        _ => Err(Error::bad("SDWA sources are registers or inline constants")),
    }
}

pub fn encode(cx: &mut Enc, d: &EncDesc, inst: &Inst) -> Result<()> {
    let base = d.format.base();
    let m = &inst.mods;
    let s = &m.sdwa;
    let (mut vd, mut v1, mut d1) = (0, 0, 0u32);
    for (od, o) in d.explicit().zip(&inst.operands) {
        match od.field {
            Field::Vdst => vd = vdst(cx, o)?,
            Field::Src0 => {
                let (c, sc) = src(cx, o)?;
                d1 |= c | (sc as u32) << 23;
            }
            Field::Vsrc1 => {
                let (c, sc) = src(cx, o)?;
                v1 = c;
                d1 |= (sc as u32) << 31;
            }
            f => unreachable!("SDWA field {f:?}"),
        }
    }
    d1 |= (s.src0_sel as u32) << 16;
    if d.slot(Field::Vsrc1).is_some() {
        d1 |= (s.src1_sel as u32) << 24;
    } else if s.src1_sel != Sdwa::default().src1_sel || (s.sext | m.neg | m.abs) & 2 != 0 {
        return Err(Error::bad(
            "src1 modifiers on an SDWA instruction without src1",
        ));
    }
    d1 |= (s.sext as u32 & 1) << 19 | (m.neg as u32 & 1) << 20 | (m.abs as u32 & 1) << 21;
    d1 |= (s.sext as u32 >> 1 & 1) << 27
        | (m.neg as u32 >> 1 & 1) << 28
        | (m.abs as u32 >> 1 & 1) << 29;
    if base == Format::Vopc {
        if let Some(r) = s.sdst {
            d1 |= 1 << 15 | (encode_code(cx.t.gen, r.base) as u32) << 8;
        }
    } else {
        d1 |= (s.dst_sel as u32) << 8
            | (s.dst_unused as u32) << 11
            | (m.clamp as u32) << 13
            | (m.omod as u32) << 14;
    }
    cx.words.push(e32_word(base, d.op, vd, v1, 0xf9));
    cx.words.push(d1);
    Ok(())
}

pub fn decode(cx: &Dec, w: &[u32], base: Format) -> Result<(Inst, usize)> {
    let w0 = word(w, 0)?;
    let w1 = word(w, 1)?;
    let (f, op) = match base {
        Format::Vop1 => (Format::Vop1Sdwa, (w0 >> 9) & 0xff),
        Format::Vop2 => (Format::Vop2Sdwa, (w0 >> 25) & 0x3f),
        _ => (Format::VopcSdwa, (w0 >> 17) & 0xff),
    };
    let d = lookup(cx, f, op)?;
    if base == Format::Vop1 && w1 & VOP1_ZERO != 0 {
        return Err(Error::invalid("VOP1 SDWA with src1 bits set"));
    }
    let sreg = |od: &crate::isa::tables::OpDesc, code: u32, scalar: bool| {
        if scalar {
            cx.src(od, code as u16, &[], 0)
        } else {
            cx.reg(od, 256 + code as u16)
        }
    };
    let ops = collect(d, |od| match od.field {
        Field::Vdst => dec_vdst(cx, od, (w0 >> 17) & 0xff),
        Field::Src0 => sreg(od, w1 & 0xff, (w1 >> 23) & 1 == 1),
        _ => sreg(od, (w0 >> 9) & 0xff, w1 >> 31 == 1),
    })?;
    // select 7 is reserved (BYTE_0..=WORD_1, DWORD are 0..=6); llvm-mc-19 crashes on it
    let sel = |at: u32| (w1 >> at) & 7 == 7;
    if sel(16) || (base != Format::Vop1 && sel(24)) || (base != Format::Vopc && sel(8)) {
        return Err(Error::invalid("SDWA select 7 is reserved"));
    }
    let mut inst = Inst::new(d.opcode, d.format, &ops);
    let m = &mut inst.mods;
    m.sdwa.src0_sel = ((w1 >> 16) & 7) as u8;
    if base != Format::Vop1 {
        m.sdwa.src1_sel = ((w1 >> 24) & 7) as u8;
    }
    m.sdwa.sext = ((w1 >> 19) & 1 | (w1 >> 26) & 2) as u8;
    m.neg = ((w1 >> 20) & 1 | (w1 >> 27) & 2) as u8;
    m.abs = ((w1 >> 21) & 1 | (w1 >> 28) & 2) as u8;
    if base == Format::Vopc {
        if (w1 >> 15) & 1 == 1 {
            let code = ((w1 >> 8) & 0x7f) as u16;
            // a lane mask: the same checks as any mask operand
            let mask = crate::isa::tables::OpDesc::reg(
                Field::Sdst,
                0,
                0,
                crate::isa::tables::ValTy::B32,
                true,
                2,
            );
            match cx.reg(&mask, code)? {
                Operand::Reg(r) => m.sdwa.sdst = Some(r),
                _ => return Err(Error::invalid("SDWA sdst")),
            }
        }
    } else {
        m.sdwa.dst_sel = ((w1 >> 8) & 7) as u8;
        m.sdwa.dst_unused = ((w1 >> 11) & 3) as u8;
        m.clamp = (w1 >> 13) & 1 == 1;
        m.omod = ((w1 >> 14) & 3) as u8;
    }
    Ok((inst, 2))
}
