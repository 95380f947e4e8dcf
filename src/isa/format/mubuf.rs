//! MUBUF (untyped buffer), 64 bits; `mtbuf.rs` shares the address and flag layout.
//! Word 0: `111000 op offset[11:0]` + flags; word 1: `soffset[31:24] srsrc[20:16]
//! vdata[15:8] vaddr[7:0]` (srsrc counts groups of 4 SGPRs) + flags. Per generation:
//! - GFX9: op[24:18], slc[17], lds[16], glc[14], idxen[13], offen[12]; w1 tfe[23];
//! - GFX10: op[24:18] + op bit 7 at [25], lds[16], dlc[15], glc[14], idxen[13], offen[12];
//!   w1 slc[22], tfe[23];
//! - GFX11: op[25:18], glc[14], dlc[13], slc[12]; w1 idxen[23], offen[22], tfe[21].
//!
//! `vaddr` is `off` unless offen/idxen (2 VGPRs with both); `tfe` adds a status dword to
//! the data; the `lds` form has no data operand (LLVM prints none).

use super::mem::{flag, layout, scode, sreg, ssrc, vnum, vreg, want_s, want_v};
use super::sop2::lookup;
use super::{word, Dec, Enc};
use crate::isa::error::{Error, Result};
use crate::isa::inst::Inst;
use crate::isa::operand::Operand;
use crate::isa::tables::{EncDesc, Field, Format, MemFlags, OpDesc};
use crate::isa::target::{Gen, Target};

/// (word, bit) of each flag; None where the generation has no such bit.
pub(super) struct Bits {
    pub offen: (usize, u32),
    pub idxen: (usize, u32),
    pub glc: (usize, u32),
    pub slc: (usize, u32),
    pub dlc: Option<(usize, u32)>,
    pub tfe: (usize, u32),
    pub lds: Option<(usize, u32)>,
}

pub(super) fn bits(gen: Gen, typed: bool) -> Bits {
    match gen {
        Gen::Gfx9 => Bits {
            offen: (0, 12),
            idxen: (0, 13),
            glc: (0, 14),
            slc: if typed { (1, 22) } else { (0, 17) },
            dlc: None,
            tfe: (1, 23),
            lds: (!typed).then_some((0, 16)),
        },
        Gen::Gfx10 => Bits {
            offen: (0, 12),
            idxen: (0, 13),
            glc: (0, 14),
            slc: (1, 22),
            dlc: Some((0, 15)),
            tfe: (1, 23),
            lds: (!typed).then_some((0, 16)),
        },
        Gen::Gfx11 => Bits {
            offen: (1, 22),
            idxen: (1, 23),
            glc: (0, 14),
            slc: (0, 12),
            dlc: Some((0, 13)),
            tfe: (1, 21),
            lds: None,
        },
    }
}

pub const PREFIX: u32 = 0b111000 << 26;

pub fn is_mubuf(w0: u32) -> bool {
    w0 & 0xfc00_0000 == PREFIX
}

/// Checks shared by MUBUF and MTBUF.
pub(super) fn check_common(
    inst: &Inst,
    d: &EncDesc,
    t: Target,
    lay: &[&OpDesc],
    typed: bool,
) -> Result<()> {
    let m = &inst.mods.mem;
    if d.operands.is_empty() {
        let none = *m == Default::default() && !inst.mods.glc && !inst.mods.dlc;
        return flag(none, "modifiers", d);
    }
    for (od, o) in lay.iter().zip(&inst.operands) {
        match od.field {
            Field::Vdst | Field::Vdata => want_v(o, od.size + m.tfe as u8, "data")?,
            Field::Vaddr => {
                let n = m.offen as u8 + m.idxen as u8;
                if n == 0 {
                    if *o != Operand::Off {
                        return Err(Error::bad("vaddr must be `off` without offen/idxen"));
                    }
                } else {
                    want_v(o, n, "vaddr")?
                }
            }
            Field::Srsrc => want_s(o, 4, 4, "srsrc")?,
            Field::Soffset => match o {
                Operand::Reg(r) if r.count == 1 && r.base.0 < 128 => {}
                Operand::Inline(c) if matches!(c, 128..=208 | 240..=248) => {}
                _ => return Err(Error::bad("soffset must be an SGPR or inline constant")),
            },
            _ => return Err(Error::bad("operand")),
        }
    }
    if !(0..4096).contains(&m.offset) {
        return Err(Error::range("buffer offset is 12 bits"));
    }
    flag(!m.tfe || d.mem.contains(MemFlags::TFE), "tfe", d)?;
    flag(!m.lds || d.mem.contains(MemFlags::LDS), "lds", d)?;
    flag(!(m.lds && m.tfe), "lds with tfe", d)?;
    flag(!inst.mods.dlc || t.gen != Gen::Gfx9, "dlc", d)?;
    // GFX10 atomics have no dlc (LLVM rejects the bit)
    flag(
        !(inst.mods.dlc && t.gen == Gen::Gfx10 && d.mnemonic.contains("atomic")),
        "dlc",
        d,
    )?;
    flag(typed || m.format == 0, "format", d)?;
    let rest = super::mem::MemMods {
        offset: m.offset,
        slc: m.slc,
        offen: m.offen,
        idxen: m.idxen,
        lds: m.lds,
        tfe: m.tfe,
        format: m.format,
        ..Default::default()
    };
    flag(*m == rest, "these modifiers", d)
}

pub fn check(inst: &Inst, d: &EncDesc, t: Target, lay: &[&OpDesc]) -> Result<()> {
    check_common(inst, d, t, lay, false)
}

/// Encodes operands and flags into `w` (opcode and format bits are the caller's).
pub(super) fn encode_common(cx: &Enc, d: &EncDesc, inst: &Inst, typed: bool, w: &mut [u32; 2]) {
    let gen = cx.t.gen;
    let b = bits(gen, typed);
    let m = &inst.mods.mem;
    let set = |w: &mut [u32; 2], at: (usize, u32), on: bool| w[at.0] |= (on as u32) << at.1;
    w[0] |= m.offset as u32;
    set(w, b.offen, m.offen);
    set(w, b.idxen, m.idxen);
    set(w, b.glc, inst.mods.glc);
    set(w, b.slc, m.slc);
    set(w, b.tfe, m.tfe);
    if let Some(x) = b.dlc {
        set(w, x, inst.mods.dlc);
    }
    if let Some(x) = b.lds {
        set(w, x, m.lds);
    }
    for (od, o) in layout(inst, d).iter().zip(&inst.operands) {
        w[1] |= match od.field {
            Field::Vdst | Field::Vdata => vnum(o) << 8,
            Field::Vaddr => vnum(o),
            Field::Srsrc => scode(gen, o) >> 2 << 16,
            _ => scode(gen, o) << 24,
        };
    }
}

/// Decodes flags and operands of `d` from `w`.
pub(super) fn decode_common(
    cx: &Dec,
    d: &'static EncDesc,
    w: [u32; 2],
    typed: bool,
) -> Result<Inst> {
    let gen = cx.gen();
    let b = bits(gen, typed);
    let get = |at: (usize, u32)| (w[at.0] >> at.1) & 1 == 1;
    let mut inst = Inst::new(d.opcode, d.format, &[]);
    let m = &mut inst.mods.mem;
    m.offset = (w[0] & 0xfff) as i32;
    m.offen = get(b.offen);
    m.idxen = get(b.idxen);
    m.slc = get(b.slc);
    m.tfe = get(b.tfe);
    m.lds = b.lds.is_some_and(get);
    inst.mods.glc = get(b.glc);
    inst.mods.dlc = b.dlc.is_some_and(get);
    let naddr = m.offen as u8 + m.idxen as u8;
    let tfe = m.tfe as u8;
    let lds = m.lds;
    let mut ops = Vec::new();
    for od in d.explicit() {
        ops.push(match od.field {
            Field::Vdst | Field::Vdata if lds => continue,
            Field::Vdst | Field::Vdata => vreg((w[1] >> 8) & 0xff, od.size + tfe)?,
            Field::Vaddr if naddr == 0 => Operand::Off,
            Field::Vaddr => vreg(w[1] & 0xff, naddr)?,
            Field::Srsrc => sreg(gen, ((w[1] >> 16) & 0x1f) << 2, 4)?,
            _ => ssrc(gen, w[1] >> 24)?,
        });
    }
    inst.operands = ops.into_iter().collect();
    Ok(inst)
}

pub fn encode(cx: &mut Enc, d: &EncDesc, inst: &Inst) -> Result<()> {
    let op = d.op as u32;
    let mut w = [PREFIX, 0];
    w[0] |= match cx.t.gen {
        Gen::Gfx10 => (op & 0x7f) << 18 | (op >> 7) << 25,
        _ => op << 18,
    };
    encode_common(cx, d, inst, false, &mut w);
    cx.words.extend_from_slice(&w);
    Ok(())
}

pub fn decode(cx: &Dec, w: &[u32]) -> Result<(Inst, usize)> {
    let w = [word(w, 0)?, word(w, 1)?];
    let op = match cx.gen() {
        Gen::Gfx9 => (w[0] >> 18) & 0x7f,
        Gen::Gfx10 => (w[0] >> 18) & 0x7f | ((w[0] >> 25) & 1) << 7,
        Gen::Gfx11 => (w[0] >> 18) & 0xff,
    };
    let d = lookup(cx, Format::Mubuf, op)?;
    if d.operands.is_empty() {
        // cache controls (buffer_wbinvl1, buffer_gl0_inv, ...): LLVM ignores the offset,
        // register fields and slc but rejects the other flags (and GFX9 bit 15)
        let i = decode_common(cx, d, w, false)?;
        let m = &i.mods;
        let b15 = cx.gen() == Gen::Gfx9 && (w[0] >> 15) & 1 == 1;
        if m.glc || m.dlc || m.mem.offen || m.mem.idxen || m.mem.lds || m.mem.tfe || b15 {
            return Err(Error::invalid(format!("{}: flags set", d.mnemonic)));
        }
        return Ok((Inst::new(d.opcode, d.format, &[]), 2));
    }
    let inst = decode_common(cx, d, w, false)?;
    super::mem::check(&inst, d, cx.t).map_err(|e| Error::invalid(e.to_string()))?;
    Ok((inst, 2))
}

/// `idxen offen offset:N glc slc dlc lds tfe`, LLVM's order.
pub(super) fn print_flags(inst: &Inst, s: &mut String) {
    let m = &inst.mods.mem;
    let mut w = |on: bool, t: &str| {
        if on {
            s.push(' ');
            s.push_str(t);
        }
    };
    w(m.idxen, "idxen");
    w(m.offen, "offen");
    if m.offset != 0 {
        s.push_str(&format!(" offset:{}", m.offset));
    }
    let mut w = |on: bool, t: &str| {
        if on {
            s.push(' ');
            s.push_str(t);
        }
    };
    w(inst.mods.glc, "glc");
    w(m.slc, "slc");
    w(inst.mods.dlc, "dlc");
    w(m.lds, "lds");
    w(m.tfe, "tfe");
}

pub fn print_mods(inst: &Inst, _t: Target, s: &mut String) {
    print_flags(inst, s)
}
