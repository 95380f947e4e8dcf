//! SOP1: `101111101 sdst[22:16] op[15:8] ssrc0[7:0]` + optional literal, every generation.

use super::sop2::{finish, lookup};
use super::{collect, word, Dec, Enc};
use crate::isa::error::Result;
use crate::isa::inst::Inst;
use crate::isa::tables::{EncDesc, Field, Format};

pub const PREFIX: u32 = 0x17d << 23;

pub fn encode(cx: &mut Enc, d: &EncDesc, inst: &Inst) -> Result<()> {
    let mut w = PREFIX | (d.op as u32) << 8;
    for (od, o) in d.explicit().zip(&inst.operands) {
        match od.field {
            Field::Sdst => w |= (cx.dst(o)? as u32) << 16,
            // s_sendmsg_rtn: the message id is an immediate in the ssrc0 field
            _ if od.imm.is_some() => w |= super::imm(cx, o, 8, 0)?,
            _ => w |= cx.src(o)? as u32,
        }
    }
    cx.words.push(w);
    cx.finish();
    Ok(())
}

pub fn decode(cx: &Dec, w: &[u32]) -> Result<(Inst, usize)> {
    let w0 = word(w, 0)?;
    let d = lookup(cx, Format::Sop1, (w0 >> 8) & 0xff)?;
    let ops = collect(d, |od| match od.field {
        Field::Sdst => cx.reg(od, ((w0 >> 16) & 0x7f) as u16),
        _ if od.imm.is_some() => Ok(crate::isa::operand::Operand::Imm(w0 & 0xff)),
        _ => cx.src(od, (w0 & 0xff) as u16, w, 1),
    })?;
    let lit = d
        .explicit()
        .any(|o| o.field == Field::Ssrc0 && o.imm.is_none())
        && w0 & 0xff == 255;
    finish(d, ops, lit)
}
