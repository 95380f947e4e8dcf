//! VINTRP (GFX9/GFX10), 32 bits: `prefix vdst[25:18] op[17:16] attr[15:10] chan[9:8]
//! vsrc[7:0]`, prefix 110101 on GFX9 and 110010 on GFX10. v_interp_mov_f32 holds its
//! parameter (p10 = 0, p20 = 1, p0 = 2; LLVM prints others as `invalid_param_N`) in the
//! vsrc field. The `Inst` holds vdst, the
//! source VGPR or parameter, and `attr * 4 + chan`.

use super::mem::{vnum, vreg, want_v};
use super::sop2::lookup;
use super::{word, Dec, Enc};
use crate::isa::error::{Error, Result};
use crate::isa::inst::Inst;
use crate::isa::operand::Operand;
use crate::isa::tables::{EncDesc, Field, Format};
use crate::isa::target::{Gen, Target};

pub fn prefix(gen: Gen) -> Option<u32> {
    match gen {
        Gen::Gfx9 => Some(0b110101 << 26),
        Gen::Gfx10 => Some(0b110010 << 26),
        Gen::Gfx11 => None,
    }
}

pub fn check(inst: &Inst, d: &EncDesc, _t: Target) -> Result<()> {
    for (od, o) in d.explicit().zip(&inst.operands) {
        match (od.field, o) {
            (Field::Vdst | Field::Src0, _) => want_v(o, 1, "operand")?,
            (Field::Param, Operand::Imm(0..=255)) => {}
            (Field::Attr, Operand::Imm(0..=255)) => {}
            _ => return Err(Error::bad(format!("{}: operand {o:?}", d.mnemonic))),
        }
    }
    super::mem::flag(
        inst.mods.mem == Default::default() && !inst.mods.glc,
        "modifiers",
        d,
    )
}

pub fn encode(cx: &mut Enc, d: &EncDesc, inst: &Inst) -> Result<()> {
    let mut w =
        prefix(cx.t.gen).ok_or_else(|| Error::bad("no VINTRP on GFX11"))? | (d.op as u32) << 16;
    for (od, o) in d.explicit().zip(&inst.operands) {
        w |= match (od.field, o) {
            (Field::Vdst, _) => vnum(o) << 18,
            (Field::Src0, _) => vnum(o),
            (_, Operand::Imm(v)) if od.field == Field::Param => *v,
            (_, Operand::Imm(v)) => v << 8,
            _ => 0,
        };
    }
    cx.words.push(w);
    Ok(())
}

pub fn decode(cx: &Dec, w: &[u32]) -> Result<(Inst, usize)> {
    let w0 = word(w, 0)?;
    let d = lookup(cx, Format::Vintrp, (w0 >> 16) & 3)?;
    let mut ops = Vec::new();
    for od in d.explicit() {
        ops.push(match od.field {
            Field::Vdst => vreg((w0 >> 18) & 0xff, 1)?,
            Field::Src0 => vreg(w0 & 0xff, 1)?,
            Field::Param => Operand::Imm(w0 & 0xff),
            _ => Operand::Imm((w0 >> 8) & 0xff),
        });
    }
    let inst = Inst::new(d.opcode, d.format, &ops);
    check(&inst, d, cx.t).map_err(|e| Error::invalid(e.to_string()))?;
    Ok((inst, 1))
}
