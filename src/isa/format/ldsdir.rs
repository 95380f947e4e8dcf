//! LDSDIR (GFX11), 32 bits: `11001110 op[21:20] wait_vdst[19:16] attr[15:10] chan[9:8]
//! vdst[7:0]`. lds_param_load reads an attribute (`attr * 4 + chan` immediate);
//! lds_direct_load reads the address in M0 (LLVM ignores its attribute field).

use super::mem::{vnum, vreg, want_v};
use super::sop2::lookup;
use super::{word, Dec, Enc};
use crate::isa::error::{Error, Result};
use crate::isa::inst::Inst;
use crate::isa::operand::Operand;
use crate::isa::tables::{EncDesc, Field, Format};
use crate::isa::target::Target;

pub const PREFIX: u32 = 0xce << 24;

pub fn check(inst: &Inst, d: &EncDesc, _t: Target) -> Result<()> {
    for (od, o) in d.explicit().zip(&inst.operands) {
        match (od.field, o) {
            (Field::Vdst, _) => want_v(o, 1, "vdst")?,
            (Field::Attr, Operand::Imm(0..=255)) => {}
            _ => return Err(Error::bad(format!("{}: operand {o:?}", d.mnemonic))),
        }
    }
    let m = &inst.mods.mem;
    let rest = super::mem::MemMods {
        wait: m.wait,
        ..Default::default()
    };
    super::mem::flag(*m == rest && m.wait < 16 && !inst.mods.glc, "modifiers", d)
}

pub fn encode(cx: &mut Enc, d: &EncDesc, inst: &Inst) -> Result<()> {
    let mut w = PREFIX | (d.op as u32) << 20 | (inst.mods.mem.wait as u32) << 16;
    for (od, o) in d.explicit().zip(&inst.operands) {
        w |= match (od.field, o) {
            (Field::Vdst, _) => vnum(o),
            (_, Operand::Imm(v)) => v << 8,
            _ => 0,
        };
    }
    cx.words.push(w);
    Ok(())
}

pub fn decode(cx: &Dec, w: &[u32]) -> Result<(Inst, usize)> {
    let w0 = word(w, 0)?;
    if (w0 >> 22) & 3 != 0 {
        return Err(Error::invalid("LDSDIR reserved bits set"));
    }
    let d = lookup(cx, Format::Ldsdir, (w0 >> 20) & 3)?;
    let mut ops = Vec::new();
    for od in d.explicit() {
        ops.push(match od.field {
            Field::Vdst => vreg(w0 & 0xff, 1)?,
            _ => Operand::Imm((w0 >> 8) & 0xff),
        });
    }
    let mut inst = Inst::new(d.opcode, d.format, &ops);
    inst.mods.mem.wait = ((w0 >> 16) & 0xf) as u8;
    super::mem::check(&inst, d, cx.t).map_err(|e| Error::invalid(e.to_string()))?;
    Ok((inst, 1))
}
