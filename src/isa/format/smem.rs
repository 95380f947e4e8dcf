//! SMEM, 64 bits. Word 0: `prefix op[25:18] ... sdata[12:6] sbase[5:0]` (sbase counts SGPR
//! pairs); word 1: `soffset[31:25] offset[20:0]`. Per generation:
//! - GFX9: prefix 110000, imm[17] (1 = word 1 is a byte offset), glc[16], soe[14];
//! - GFX10: prefix 111101, glc[16], dlc[14], soffset = null (125) for no SGPR offset;
//! - GFX11: prefix 111101, glc[14], dlc[13], soffset null = 124.
//! The offset operand is `Imm` (a signed 21-bit byte offset) or `Reg` (an SGPR offset, with
//! `Mods::offset` as an extra immediate: GFX9 uses soe=1 for that, GFX10+ always has both).

use super::sop2::lookup;
use super::{collect, word, Dec, Enc};
use crate::isa::error::{Error, Result};
use crate::isa::inst::Inst;
use crate::isa::operand::Operand;
use crate::isa::reg::{encode_code, PhysReg};
use crate::isa::tables::{EncDesc, Field, Format, ModSet, ValTy};
use crate::isa::target::Gen;

struct Layout {
    prefix: u32,
    glc: u32,
    dlc: Option<u32>,
}

fn layout(gen: Gen) -> Layout {
    match gen {
        Gen::Gfx9 => Layout {
            prefix: 0b110000 << 26,
            glc: 16,
            dlc: None,
        },
        Gen::Gfx10 => Layout {
            prefix: 0b111101 << 26,
            glc: 16,
            dlc: Some(14),
        },
        Gen::Gfx11 => Layout {
            prefix: 0b111101 << 26,
            glc: 14,
            dlc: Some(13),
        },
    }
}

pub fn is_smem(gen: Gen, w0: u32) -> bool {
    w0 & (0x3f << 26) == layout(gen).prefix
}

pub fn encode(cx: &mut Enc, d: &EncDesc, inst: &Inst) -> Result<()> {
    let gen = cx.t.gen;
    let l = layout(gen);
    let mut w0 = l.prefix | (d.op as u32) << 18;
    let mut w1 = 0;
    let null = encode_code(gen, PhysReg::NULL) as u32;
    let extra = inst.mods.offset;
    if extra >= 1 << 21 {
        return Err(Error::range("SMEM offset is 21 bits"));
    }
    for (od, o) in d.explicit().zip(&inst.operands) {
        match od.field {
            Field::Sdata => {
                let v = match o {
                    Operand::Imm(v) if *v < 128 => *v,
                    Operand::Reg(_) => cx.dst(o)? as u32,
                    _ => return Err(Error::bad("sdata")),
                };
                w0 |= v << 6;
            }
            Field::Sbase => {
                let c = cx.dst(o)? as u32;
                if c % 2 != 0 || c >= 128 {
                    return Err(Error::bad("sbase must be an aligned SGPR pair"));
                }
                w0 |= c >> 1;
            }
            Field::Offset => match o {
                Operand::Reg(r) if !r.base.is_vgpr() && r.base.0 < 128 => {
                    let c = encode_code(gen, r.base) as u32;
                    match (gen, extra) {
                        (Gen::Gfx9, 0) => w1 = c,
                        (Gen::Gfx9, x) => {
                            w0 |= 1 << 17 | 1 << 14;
                            w1 = x | c << 25;
                        }
                        (_, x) => w1 = x | c << 25,
                    }
                }
                _ => {
                    if extra != 0 {
                        return Err(Error::bad("offset: modifier needs an SGPR offset operand"));
                    }
                    let v = super::imm(cx, o, 21, 4)?;
                    w1 = v;
                    if gen == Gen::Gfx9 {
                        w0 |= 1 << 17;
                    } else {
                        w1 |= null << 25;
                    }
                }
            },
            _ => unreachable!(),
        }
    }
    if inst.mods.glc {
        w0 |= 1 << l.glc;
    }
    if inst.mods.dlc {
        w0 |= 1 << l.dlc.ok_or_else(|| Error::bad("dlc needs GFX10+"))?;
    }
    cx.words.push(w0);
    cx.words.push(w1);
    Ok(())
}

pub fn decode(cx: &Dec, w: &[u32]) -> Result<(Inst, usize)> {
    let gen = cx.gen();
    let l = layout(gen);
    let w0 = word(w, 0)?;
    let w1 = word(w, 1)?;
    let d = lookup(cx, Format::Smem, (w0 >> 18) & 0xff)?;
    let null = encode_code(gen, PhysReg::NULL) as u32;
    if gen == Gen::Gfx11 {
        if ((w0 >> l.glc) & 1 == 1 && !d.mods.contains(ModSet::GLC))
            || (l.dlc.is_some_and(|b| (w0 >> b) & 1 == 1) && !d.mods.contains(ModSet::DLC))
        {
            return Err(Error::invalid(
                "GFX11 SMEM cache bit the instruction does not have",
            ));
        }
    }
    if gen == Gen::Gfx9 && d.slot(Field::Offset).is_none() && (w0 >> 17) & 1 == 1 {
        return Err(Error::invalid(
            "GFX9 SMEM without an offset operand has imm set",
        ));
    }
    let mut extra = 0;
    let offset = |od: &crate::isa::tables::OpDesc, extra: &mut u32| -> Result<Operand> {
        let sreg = |code: u32| {
            cx.reg(
                &crate::isa::tables::OpDesc::reg(Field::Offset, 1, 1, ValTy::B32, true, 2),
                code as u16,
            )
        };
        let _ = od;
        if gen == Gen::Gfx9 {
            let (imm, soe) = ((w0 >> 17) & 1 == 1, (w0 >> 14) & 1 == 1);
            match (imm, soe) {
                (true, false) => Ok(Operand::Imm(w1 & 0x1fffff)),
                (false, false) => sreg(w1 & 0x7f),
                (true, true) => {
                    *extra = w1 & 0x1fffff;
                    sreg(w1 >> 25)
                }
                // soe without imm: the SGPR comes from the soffset field alone
                (false, true) => sreg(w1 >> 25),
            }
        } else if w1 >> 25 == null {
            Ok(Operand::Imm(w1 & 0x1fffff))
        } else {
            *extra = w1 & 0x1fffff;
            sreg(w1 >> 25)
        }
    };
    let ops = collect(d, |od| match od.field {
        Field::Sdata if od.imm.is_some() => Ok(Operand::Imm((w0 >> 6) & 0x7f)),
        Field::Sdata => match cx.reg(od, ((w0 >> 6) & 0x7f) as u16)? {
            // LLVM's SMEM data registers exclude m0 and exec
            Operand::Reg(r) if r.base == PhysReg::M0 || r.base.0 == 126 || r.base.0 == 127 => {
                Err(Error::invalid("SMEM data in m0/exec"))
            }
            o => Ok(o),
        },
        Field::Sbase => cx.reg(od, ((w0 & 0x3f) << 1) as u16),
        _ => offset(od, &mut extra),
    })?;
    let mut inst = Inst::new(d.opcode, d.format, &ops);
    inst.mods.offset = extra;
    // LLVM ignores cache bits an instruction does not have
    inst.mods.glc = (w0 >> l.glc) & 1 == 1 && d.mods.contains(ModSet::GLC);
    inst.mods.dlc = l.dlc.is_some_and(|b| (w0 >> b) & 1 == 1) && d.mods.contains(ModSet::DLC);
    Ok((inst, 2))
}
