//! SOPK: `1011 op[27:23] sdst[22:16] simm16[15:0]`; `s_setreg_imm32_b32` adds a literal
//! dword. (On every generation; s_waitcnt_vscnt & co. are SOPK with an SGPR and a count.)

use super::sop2::{finish, lookup};
use super::{collect, word, Dec, Enc};
use crate::isa::error::Result;
use crate::isa::inst::Inst;
use crate::isa::operand::Operand;
use crate::isa::tables::{EncDesc, Field, Format};

pub const PREFIX: u32 = 0b1011 << 28;

pub fn encode(cx: &mut Enc, d: &EncDesc, inst: &Inst) -> Result<()> {
    let mut w = PREFIX | (d.op as u32) << 23;
    let mut extra = None;
    for (od, o) in d.explicit().zip(&inst.operands) {
        match od.field {
            Field::Sdst => w |= (cx.dst(o)? as u32) << 16,
            Field::Simm16 => w |= super::imm(cx, o, 16, 0)?,
            _ => extra = Some(*o),
        }
    }
    cx.words.push(w);
    match extra {
        Some(Operand::Literal(v)) => cx.words.push(v),
        Some(o @ Operand::Symbol(_)) => {
            cx.literal = Some(o);
            cx.finish();
        }
        Some(_) => return Err(crate::isa::error::Error::bad("imm32 must be a literal")),
        None => {}
    }
    Ok(())
}

pub fn decode(cx: &Dec, w: &[u32]) -> Result<(Inst, usize)> {
    let w0 = word(w, 0)?;
    let d = lookup(cx, Format::Sopk, (w0 >> 23) & 0x1f)?;
    let mut lit = false;
    let ops = collect(d, |od| match od.field {
        Field::Sdst => cx.reg(od, ((w0 >> 16) & 0x7f) as u16),
        Field::Simm16 => Ok(Operand::Imm(w0 & 0xffff)),
        _ => {
            lit = true;
            Ok(Operand::Literal(word(w, 1)?))
        }
    })?;
    finish(d, ops, lit)
}
