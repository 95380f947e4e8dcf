//! VOP2: `0 op[30:25] vdst[24:17] vsrc1[16:9] src0[8:0]` + optional literal, every
//! generation. `v_madmk/madak/fmamk/fmaak` always carry the K literal dword.

use super::sop2::{finish, lookup};
use super::vop1::{dec_vdst, vdst};
use super::{collect, word, Dec, Enc};
use crate::isa::error::{Error, Result};
use crate::isa::inst::Inst;
use crate::isa::operand::Operand;
use crate::isa::tables::{EncDesc, Field, Format};
use crate::isa::target::Gen;

pub fn encode(cx: &mut Enc, d: &EncDesc, inst: &Inst) -> Result<()> {
    let mut w = (d.op as u32) << 25;
    for (od, o) in d.explicit().zip(&inst.operands) {
        match od.field {
            Field::Vdst => w |= vdst(cx, o)? << 17,
            Field::Src0 => w |= cx.src(o)? as u32,
            Field::Vsrc1 => w |= vgpr8(o)? << 9,
            Field::K => {
                cx.src(o)?;
            }
            f => unreachable!("VOP2 field {f:?}"),
        }
    }
    cx.words.push(w);
    cx.finish();
    Ok(())
}

/// An 8-bit VGPR-only field.
pub(super) fn vgpr8(o: &Operand) -> Result<u32> {
    match o {
        Operand::Reg(r) if r.base.is_vgpr() => Ok(r.base.0 as u32 - 256),
        _ => Err(Error::bad("operand must be a VGPR")),
    }
}

pub fn decode(cx: &Dec, w: &[u32]) -> Result<(Inst, usize)> {
    let w0 = word(w, 0)?;
    match (w0 & 0x1ff, cx.gen()) {
        (0xf9, Gen::Gfx9 | Gen::Gfx10) => return super::sdwa::decode(cx, w, Format::Vop2),
        (0xfa, _) => return super::dpp::decode(cx, w, Format::Vop2),
        (0xe9 | 0xea, Gen::Gfx10 | Gen::Gfx11) => return super::dpp::decode(cx, w, Format::Vop2),
        _ => {}
    }
    let d = lookup(cx, Format::Vop2, (w0 >> 25) & 0x3f)?;
    let mut lit = false;
    let ops = collect(d, |od| match od.field {
        Field::Vdst => dec_vdst(cx, od, (w0 >> 17) & 0xff),
        Field::Vsrc1 => cx.reg(od, (((w0 >> 9) & 0xff) + 256) as u16),
        Field::K => {
            lit = true;
            Ok(Operand::Literal(word(w, 1)?))
        }
        _ => {
            lit |= w0 & 0x1ff == 255;
            cx.src(od, (w0 & 0x1ff) as u16, w, 1)
        }
    })?;
    finish(d, ops, lit)
}
