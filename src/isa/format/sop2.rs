//! SOP2: `10 op[29:23] sdst[22:16] ssrc1[15:8] ssrc0[7:0]` + optional literal, on every
//! generation. (Opcode values with op[29:28] = 0b11 belong to SOPK/SOP1/SOPC/SOPP.)

use super::{collect, word, Dec, Enc};
use crate::isa::error::Result;
use crate::isa::inst::Inst;
use crate::isa::tables::{self, EncDesc, Field, Format};

pub const PREFIX: u32 = 0b10 << 30;

pub fn encode(cx: &mut Enc, d: &EncDesc, inst: &Inst) -> Result<()> {
    let mut w = PREFIX | (d.op as u32) << 23;
    for (od, o) in d.explicit().zip(&inst.operands) {
        match od.field {
            Field::Sdst => w |= (cx.dst(o)? as u32) << 16,
            Field::Ssrc0 => w |= cx.src(o)? as u32,
            Field::Ssrc1 => w |= (cx.src(o)? as u32) << 8,
            _ => unreachable!("SOP2 table entry with field {:?}", od.field),
        }
    }
    cx.words.push(w);
    cx.finish();
    Ok(())
}

pub fn decode(cx: &Dec, w: &[u32]) -> Result<(Inst, usize)> {
    let w0 = word(w, 0)?;
    let d = lookup(cx, Format::Sop2, (w0 >> 23) & 0x7f)?;
    let ops = collect(d, |od| match od.field {
        Field::Sdst => cx.reg(od, ((w0 >> 16) & 0x7f) as u16),
        Field::Ssrc0 => cx.src(od, (w0 & 0xff) as u16, w, 1),
        _ => cx.src(od, ((w0 >> 8) & 0xff) as u16, w, 1),
    })?;
    finish(d, ops, w0 & 0xff == 255 || (w0 >> 8) & 0xff == 255)
}

pub(super) fn lookup(cx: &Dec, f: Format, op: u32) -> Result<&'static EncDesc> {
    tables::lookup(cx.gen(), f, op).ok_or_else(|| {
        crate::isa::error::Error::invalid(format!("no {f:?} opcode {op:#x} on {}", cx.gen()))
    })
}

pub(super) fn finish(
    d: &EncDesc,
    ops: smallvec::SmallVec<[crate::isa::operand::Operand; 6]>,
    lit: bool,
) -> Result<(Inst, usize)> {
    let mut inst = Inst::new(d.opcode, d.format, &[]);
    inst.operands = ops;
    Ok((inst, if lit { 2 } else { 1 }))
}
