//! DS (LDS/GDS), 64 bits. Word 0: `110110 op gds offset1[15:8] offset0[7:0]` with
//! GFX9 `op[24:17] gds[16]`, GFX10/GFX11 `op[25:18] gds[17]`; word 1:
//! `vdst[31:24] data1[23:16] data0[15:8] addr[7:0]` (VGPR numbers).
//! LLVM rejects a word whose unused register fields, offset or gds bit are set where the
//! instruction has none; so does `decode`.

use super::mem::{flag, vnum, vreg, want_v};
use super::sop2::lookup;
use super::{word, Dec, Enc};
use crate::isa::error::{Error, Result};
use crate::isa::inst::Inst;
use crate::isa::tables::{EncDesc, Field, Format, MemFlags};
use crate::isa::target::{Gen, Target};

const PREFIX: u32 = 0b110110 << 26;

fn op_gds(gen: Gen) -> (u32, u32) {
    match gen {
        Gen::Gfx9 => (17, 16),
        _ => (18, 17),
    }
}

pub fn is_ds(w0: u32) -> bool {
    w0 & 0xfc00_0000 == PREFIX
}

fn shift(f: Field) -> u32 {
    match f {
        Field::Addr => 0,
        Field::Data0 => 8,
        Field::Data1 => 16,
        _ => 24,
    }
}

pub fn check(inst: &Inst, d: &EncDesc, _t: Target) -> Result<()> {
    for (od, o) in d.explicit().zip(&inst.operands) {
        want_v(o, od.size, &format!("{:?}", od.field))?;
    }
    let m = &inst.mods.mem;
    let offs = d.mem.intersects(MemFlags::OFFSET | MemFlags::OFFSET01);
    flag(m.offset == 0 || offs, "an offset", d)?;
    if !(0..=0xffff).contains(&m.offset) {
        return Err(Error::range("DS offset is 16 bits"));
    }
    flag(!m.gds || d.mem.contains(MemFlags::GDS), "gds", d)?;
    flag(m.gds || !d.mem.contains(MemFlags::GDS_ONLY), "no gds", d)?;
    let other = super::mem::MemMods {
        offset: m.offset,
        gds: m.gds,
        ..Default::default()
    };
    flag(
        *m == other && !inst.mods.glc && !inst.mods.dlc,
        "these modifiers",
        d,
    )
}

pub fn encode(cx: &mut Enc, d: &EncDesc, inst: &Inst) -> Result<()> {
    let (op_at, gds_at) = op_gds(cx.t.gen);
    let m = &inst.mods.mem;
    let w0 = PREFIX | (d.op as u32) << op_at | (m.gds as u32) << gds_at | m.offset as u32;
    let mut w1 = 0;
    for (od, o) in d.explicit().zip(&inst.operands) {
        w1 |= vnum(o) << shift(od.field);
    }
    cx.words.push(w0);
    cx.words.push(w1);
    Ok(())
}

pub fn decode(cx: &Dec, w: &[u32]) -> Result<(Inst, usize)> {
    let (w0, w1) = (word(w, 0)?, word(w, 1)?);
    let (op_at, gds_at) = op_gds(cx.gen());
    let d = lookup(cx, Format::Ds, (w0 >> op_at) & 0xff)?;
    let mut ops = Vec::new();
    let mut used = 0u32;
    for od in d.explicit() {
        let s = shift(od.field);
        used |= 0xff << s;
        ops.push(vreg((w1 >> s) & 0xff, od.size)?);
    }
    if w1 & !used != 0 {
        return Err(Error::invalid(format!(
            "{}: unused register field set",
            d.mnemonic
        )));
    }
    let mut inst = Inst::new(d.opcode, d.format, &ops);
    let m = &mut inst.mods.mem;
    m.gds = (w0 >> gds_at) & 1 == 1;
    m.offset = (w0 & 0xffff) as i32;
    check(&inst, d, cx.t).map_err(|e| Error::invalid(e.to_string()))?;
    Ok((inst, 2))
}

pub fn print_mods(inst: &Inst, d: &EncDesc, s: &mut String) {
    let m = &inst.mods.mem;
    if d.mem.contains(MemFlags::OFFSET01) {
        let (a, b) = (m.offset & 0xff, m.offset >> 8);
        if a != 0 {
            s.push_str(&format!(" offset0:{a}"));
        }
        if b != 0 {
            s.push_str(&format!(" offset1:{b}"));
        }
    } else if m.offset != 0 {
        s.push_str(&format!(" offset:{}", m.offset));
    }
    if m.gds {
        s.push_str(" gds");
    }
}
