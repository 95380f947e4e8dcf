//! VOPC: `0111110 op[24:17] vsrc1[16:9] src0[8:0]` + optional literal; writes VCC (EXEC
//! too for v_cmpx on GFX9/10; GFX11 v_cmpx writes only EXEC), printed as an implicit operand.

use super::sop2::{finish, lookup};
use super::vop2::vgpr8;
use super::{collect, word, Dec, Enc};
use crate::isa::error::Result;
use crate::isa::inst::Inst;
use crate::isa::tables::{EncDesc, Field, Format};
use crate::isa::target::Gen;

pub const PREFIX: u32 = 0x3e << 25;

pub fn encode(cx: &mut Enc, d: &EncDesc, inst: &Inst) -> Result<()> {
    let mut w = PREFIX | (d.op as u32) << 17;
    for (od, o) in d.explicit().zip(&inst.operands) {
        match od.field {
            Field::Src0 => w |= cx.src(o)? as u32,
            _ => w |= vgpr8(o)? << 9,
        }
    }
    cx.words.push(w);
    cx.finish();
    Ok(())
}

pub fn decode(cx: &Dec, w: &[u32]) -> Result<(Inst, usize)> {
    let w0 = word(w, 0)?;
    match (w0 & 0x1ff, cx.gen()) {
        (0xf9, Gen::Gfx9 | Gen::Gfx10) => return super::sdwa::decode(cx, w, Format::Vopc),
        (0xfa, _) => return super::dpp::decode(cx, w, Format::Vopc),
        (0xe9 | 0xea, Gen::Gfx10 | Gen::Gfx11) => return super::dpp::decode(cx, w, Format::Vopc),
        _ => {}
    }
    let d = lookup(cx, Format::Vopc, (w0 >> 17) & 0xff)?;
    let ops = collect(d, |od| match od.field {
        Field::Src0 => cx.src(od, (w0 & 0x1ff) as u16, w, 1),
        _ => cx.reg(od, (((w0 >> 9) & 0xff) + 256) as u16),
    })?;
    finish(d, ops, w0 & 0x1ff == 255)
}
