//! VOP1: `0111111 vdst[24:17] op[16:9] src0[8:0]` + optional literal, every generation.
//! vdst is a VGPR number, or an SGPR code for `v_readfirstlane_b32` (operand marked sgpr).

use super::sop2::{finish, lookup};
use super::{collect, word, Dec, Enc};
use crate::isa::error::Result;
use crate::isa::inst::Inst;
use crate::isa::tables::{EncDesc, Field, Format};
use crate::isa::target::Gen;

pub const PREFIX: u32 = 0x3f << 25;

pub fn encode(cx: &mut Enc, d: &EncDesc, inst: &Inst) -> Result<()> {
    let mut w = PREFIX | (d.op as u32) << 9;
    for (od, o) in d.explicit().zip(&inst.operands) {
        match od.field {
            Field::Vdst => w |= vdst(cx, o)? << 17,
            _ => w |= cx.src(o)? as u32,
        }
    }
    cx.words.push(w);
    cx.finish();
    Ok(())
}

/// An 8-bit vdst field: VGPR number, or SGPR code.
pub(super) fn vdst(cx: &Enc, o: &crate::isa::operand::Operand) -> Result<u32> {
    let c = cx.dst(o)? as u32;
    Ok(if c >= 256 { c - 256 } else { c })
}

/// Decodes an 8-bit vdst field.
pub(super) fn dec_vdst(
    cx: &Dec,
    od: &crate::isa::tables::OpDesc,
    v: u32,
) -> Result<crate::isa::operand::Operand> {
    // lds_direct (254) is a source only: an SGPR destination (a wave32 VOPC_e64 mask)
    // holding it is not an instruction LLVM decodes
    if od.sgpr && v == 254 {
        return Err(crate::isa::error::Error::invalid(
            "lds_direct as a destination",
        ));
    }
    cx.reg(od, if od.sgpr { v as u16 } else { v as u16 + 256 })
}

pub fn decode(cx: &Dec, w: &[u32]) -> Result<(Inst, usize)> {
    let w0 = word(w, 0)?;
    match (w0 & 0x1ff, cx.gen()) {
        (0xf9, Gen::Gfx9 | Gen::Gfx10) => return super::sdwa::decode(cx, w, Format::Vop1),
        (0xfa, _) => return super::dpp::decode(cx, w, Format::Vop1),
        (0xe9 | 0xea, Gen::Gfx10 | Gen::Gfx11) => return super::dpp::decode(cx, w, Format::Vop1),
        _ => {}
    }
    let d = lookup(cx, Format::Vop1, (w0 >> 9) & 0xff)?;
    let ops = collect(d, |od| match od.field {
        Field::Vdst => dec_vdst(cx, od, (w0 >> 17) & 0xff),
        _ => cx.src(od, (w0 & 0x1ff) as u16, w, 1),
    })?;
    let lit = d.slot(Field::Src0).is_some() && w0 & 0x1ff == 255;
    finish(d, ops, lit)
}
