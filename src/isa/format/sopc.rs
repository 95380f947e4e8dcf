//! SOPC: `101111110 op[22:16] ssrc1[15:8] ssrc0[7:0]` + optional literal. `s_set_gpr_idx_on`
//! (GFX9) holds an immediate mode mask in ssrc1.

use super::sop2::{finish, lookup};
use super::{collect, word, Dec, Enc};
use crate::isa::error::Result;
use crate::isa::inst::Inst;
use crate::isa::operand::Operand;
use crate::isa::tables::{EncDesc, Field, Format};

pub const PREFIX: u32 = 0x17e << 23;

pub fn encode(cx: &mut Enc, d: &EncDesc, inst: &Inst) -> Result<()> {
    let mut w = PREFIX | (d.op as u32) << 16;
    for (od, o) in d.explicit().zip(&inst.operands) {
        match (od.field, od.imm) {
            (Field::Ssrc1, Some(_)) => w |= super::imm(cx, o, 8, 1)? << 8,
            (Field::Ssrc1, None) => w |= (cx.src(o)? as u32) << 8,
            _ => w |= cx.src(o)? as u32,
        }
    }
    cx.words.push(w);
    cx.finish();
    Ok(())
}

pub fn decode(cx: &Dec, w: &[u32]) -> Result<(Inst, usize)> {
    let w0 = word(w, 0)?;
    let d = lookup(cx, Format::Sopc, (w0 >> 16) & 0x7f)?;
    let mut lit = false;
    let ops = collect(d, |od| {
        let code = if od.field == Field::Ssrc1 {
            (w0 >> 8) & 0xff
        } else {
            w0 & 0xff
        };
        if od.imm.is_some() {
            return Ok(Operand::Imm(code));
        }
        lit |= code == 255;
        cx.src(od, code as u16, w, 1)
    })?;
    finish(d, ops, lit)
}
