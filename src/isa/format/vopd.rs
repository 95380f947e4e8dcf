//! VOPD (GFX11 dual issue), 64 bits + literal. Word 0: `110010 opX[25:22] opY[21:17]
//! vsrcX1[16:9] srcX0[8:0]`; word 1: `vdstX[31:24] vdstY[23:17] vsrcY1[16:9] srcY0[8:0]`,
//! where vdstY's low bit is not stored: it is the inverse of vdstX's. fmaak/fmamk halves
//! share one literal dword.

use super::sop2::lookup;
use super::vop2::vgpr8;
use super::{word, Dec, Enc};
use crate::isa::error::{Error, Result};
use crate::isa::inst::Inst;
use crate::isa::operand::Operand;
use crate::isa::tables::{self, EncDesc, Field, Format};

pub const PREFIX: u32 = 0b110010 << 26;

struct Half {
    op: u32,
    vdst: u32,
    src0: u32,
    vsrc1: u32,
}

fn half(cx: &mut Enc, d: &EncDesc, ops: &[Operand]) -> Result<Half> {
    let mut h = Half {
        op: d.op as u32,
        vdst: 0,
        src0: 0,
        vsrc1: 0,
    };
    for (od, o) in d.explicit().zip(ops) {
        match od.field {
            Field::Vdst => h.vdst = vgpr8(o)?,
            Field::Src0 => h.src0 = cx.src(o)? as u32,
            Field::Vsrc1 => h.vsrc1 = vgpr8(o)?,
            Field::K => {
                cx.src(o)?;
            }
            f => unreachable!("VOPD field {f:?}"),
        }
    }
    Ok(h)
}

pub fn encode(cx: &mut Enc, dx: &EncDesc, inst: &Inst) -> Result<()> {
    let y = inst
        .op_y
        .ok_or_else(|| Error::bad("VOPD without a Y half"))?;
    let dy = tables::form(cx.t.gen, y, Format::VopdY)
        .ok_or_else(|| Error::bad("no such VOPD Y instruction"))?;
    let nx = dx.n_explicit();
    let x = half(cx, dx, &inst.operands[..nx])?;
    let y = half(cx, dy, &inst.operands[nx..])?;
    cx.words
        .push(PREFIX | x.op << 22 | y.op << 17 | x.vsrc1 << 9 | x.src0);
    cx.words
        .push(x.vdst << 24 | (y.vdst >> 1) << 17 | y.vsrc1 << 9 | y.src0);
    cx.finish();
    Ok(())
}

pub fn decode(cx: &Dec, w: &[u32]) -> Result<(Inst, usize)> {
    if cx.t.wave != crate::isa::target::Wave::W32 {
        return Err(Error::invalid("VOPD needs wave32"));
    }
    let w0 = word(w, 0)?;
    let w1 = word(w, 1)?;
    let dx = lookup(cx, Format::VopdX, (w0 >> 22) & 0xf)?;
    let dy = lookup(cx, Format::VopdY, (w0 >> 17) & 0x1f)?;
    // a half without vsrc1 (v_dual_mov_b32) must leave that field zero
    if !dx.explicit().any(|o| o.field == Field::Vsrc1) && (w0 >> 9) & 0xff != 0 {
        return Err(Error::invalid(
            "VOPD X vsrc1 field of a one-source instruction",
        ));
    }
    if !dy.explicit().any(|o| o.field == Field::Vsrc1) && (w1 >> 9) & 0xff != 0 {
        return Err(Error::invalid(
            "VOPD Y vsrc1 field of a one-source instruction",
        ));
    }
    let vdst_x = w1 >> 24;
    let vdst_y = ((w1 >> 17) & 0x7f) << 1 | (!vdst_x & 1);
    let mut lit = false;
    let mut ops = smallvec::SmallVec::new();
    for (d, vdst, vsrc1, src0) in [
        (dx, vdst_x, (w0 >> 9) & 0xff, w0 & 0x1ff),
        (dy, vdst_y, (w1 >> 9) & 0xff, w1 & 0x1ff),
    ] {
        for od in d.explicit() {
            ops.push(match od.field {
                Field::Vdst => cx.reg(od, 256 + vdst as u16)?,
                Field::Vsrc1 => cx.reg(od, 256 + vsrc1 as u16)?,
                Field::K => {
                    lit = true;
                    Operand::Literal(word(w, 2)?)
                }
                _ => {
                    lit |= src0 == 255;
                    cx.src(od, src0 as u16, w, 2)?
                }
            });
        }
    }
    let mut inst = Inst::new(dx.opcode, Format::VopdX, &[]);
    inst.operands = ops;
    inst.op_y = Some(dy.opcode);
    Ok((inst, if lit { 3 } else { 2 }))
}

/// The `v_dual_*` opcode of an ordinary VALU opcode (`v_add_f32` → `v_dual_add_f32`) when
/// `gen` has it as a VOPD X or Y half. The names are the tables' facts: a dual opcode
/// computes what the opcode of its name without `dual_` does (`DUAL_PAIRS`, paired by name
/// in build.rs, so no string work at run time).
pub fn dual_opcode(gen: crate::isa::Gen, op: crate::isa::Opcode) -> Option<crate::isa::Opcode> {
    let dual = tables::DUAL_PAIRS[op as usize].0?;
    [Format::VopdX, Format::VopdY]
        .iter()
        .any(|&f| tables::form(gen, dual, f).is_some())
        .then_some(dual)
}

/// The ordinary VALU opcode a `v_dual_*` half computes (`v_dual_add_f32` → `v_add_f32`).
pub fn base_opcode(dual: crate::isa::Opcode) -> Option<crate::isa::Opcode> {
    tables::DUAL_PAIRS[dual as usize].1
}
