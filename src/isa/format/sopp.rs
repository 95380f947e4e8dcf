//! SOPP: `101111111 op[22:16] simm16[15:0]`. Branch offsets are in dwords relative to the
//! next instruction; a `Label` operand leaves the field to the code buffer (`Branch16`).

use super::sop2::{finish, lookup};
use super::{collect, word, Dec, Enc};
use crate::isa::error::Result;
use crate::isa::inst::Inst;
use crate::isa::operand::Operand;
use crate::isa::tables::{EncDesc, Format};

pub const PREFIX: u32 = 0x17f << 23;

pub fn encode(cx: &mut Enc, d: &EncDesc, inst: &Inst) -> Result<()> {
    let mut w = PREFIX | (d.op as u32) << 16;
    if let Some(o) = inst.operands.first() {
        w |= super::imm(cx, o, 16, 0)?;
    }
    cx.words.push(w);
    Ok(())
}

pub fn decode(cx: &Dec, w: &[u32]) -> Result<(Inst, usize)> {
    let w0 = word(w, 0)?;
    let d = lookup(cx, Format::Sopp, (w0 >> 16) & 0x7f)?;
    let ops = collect(d, |_| Ok(Operand::Imm(w0 & 0xffff)))?;
    finish(d, ops, false)
}
