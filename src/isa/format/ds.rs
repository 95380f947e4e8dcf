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
    let offs = d
        .mem
        .intersects(MemFlags::OFFSET | MemFlags::OFFSET01 | MemFlags::SWIZZLE);
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
    // GFX9 bit 25 (the AGPR flag of later chips) is ignored by LLVM on instructions with
    // data or result VGPRs and rejected on the others
    let has_data = d
        .explicit()
        .any(|o| matches!(o.field, Field::Vdst | Field::Data0 | Field::Data1))
        || (d.mnemonic.starts_with("ds_gws_") && d.n_explicit() > 0);
    if cx.gen() == Gen::Gfx9 && (w0 >> 25) & 1 == 1 && !has_data {
        return Err(Error::invalid("DS bit 25 set"));
    }
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
    } else if d.mem.contains(MemFlags::SWIZZLE) && m.offset != 0 {
        s.push_str(" offset:");
        s.push_str(&swizzle_text(m.offset as u16));
    } else if m.offset != 0 {
        s.push_str(&format!(" offset:{}", m.offset));
    }
    if m.gds {
        s.push_str(" gds");
    }
}

/// LLVM's text for a ds_swizzle_b32 offset: `swizzle(QUAD_PERM,..)` when bits 15:8 are
/// 0x80, else with bit 15 clear the bitmask mode (`and | or << 5 | xor << 10`) printed as
/// SWAP, REVERSE, BROADCAST or BITMASK_PERM, else the plain number.
pub fn swizzle_text(v: u16) -> String {
    if v & 0xff00 == 0x8000 {
        let l: Vec<String> = (0..4).map(|i| ((v >> (2 * i)) & 3).to_string()).collect();
        return format!("swizzle(QUAD_PERM,{})", l.join(","));
    }
    if v & 0x8000 != 0 {
        return v.to_string();
    }
    let (and, or, xor) = (v & 0x1f, (v >> 5) & 0x1f, (v >> 10) & 0x1f);
    if and == 0x1f && or == 0 && xor.count_ones() == 1 {
        return format!("swizzle(SWAP,{xor})");
    }
    if and == 0x1f && or == 0 && xor > 0 && (xor + 1).is_power_of_two() {
        return format!("swizzle(REVERSE,{})", xor + 1);
    }
    let group = 0x1f - and + 1;
    if group > 1 && group.is_power_of_two() && or < group && xor == 0 {
        return format!("swizzle(BROADCAST,{group},{or})");
    }
    let mut s = String::new();
    for b in (0..5).rev() {
        let (a, o, x) = ((and >> b) & 1, (or >> b) & 1, (xor >> b) & 1);
        s.push(match (a, o, x) {
            (0, _, _) => {
                if o ^ x == 1 {
                    '1'
                } else {
                    '0'
                }
            }
            (_, 1, _) => {
                if x == 1 {
                    '0'
                } else {
                    '1'
                }
            }
            (_, _, 0) => 'p',
            _ => 'i',
        });
    }
    format!("swizzle(BITMASK_PERM,\"{s}\")")
}

/// Inverse of `swizzle_text` (also accepts a plain number).
pub fn parse_swizzle(s: &str) -> Option<u16> {
    let Some(inner) = s.strip_prefix("swizzle(").and_then(|r| r.strip_suffix(')')) else {
        return s.parse().ok();
    };
    let mut it = inner.split(',');
    let kind = it.next()?;
    let args: Vec<&str> = it.collect();
    let num = |i: usize| -> Option<u16> { args.get(i)?.trim().parse().ok() };
    Some(match kind {
        "QUAD_PERM" if args.len() == 4 => {
            let mut v = 0x8000;
            for i in 0..4 {
                let l = num(i).filter(|&l| l < 4)?;
                v |= l << (2 * i);
            }
            v
        }
        "SWAP" if args.len() == 1 => {
            0x1f | num(0).filter(|&x| x.count_ones() == 1 && x < 32)? << 10
        }
        "REVERSE" if args.len() == 1 => {
            let n = num(0).filter(|&n| n.is_power_of_two() && (2..=32).contains(&n))?;
            0x1f | (n - 1) << 10
        }
        "BROADCAST" if args.len() == 2 => {
            let g = num(0).filter(|&g| g.is_power_of_two() && (2..=32).contains(&g))?;
            let l = num(1).filter(|&l| l < g)?;
            (0x1f - g + 1) | l << 5
        }
        "BITMASK_PERM" if args.len() == 1 => {
            let m = args[0].strip_prefix('"')?.strip_suffix('"')?;
            if m.len() != 5 {
                return None;
            }
            let (mut and, mut or, mut xor) = (0u16, 0u16, 0u16);
            for (i, c) in m.chars().enumerate() {
                let b = 1 << (4 - i);
                match c {
                    '0' => {}
                    '1' => or |= b,
                    'p' => and |= b,
                    'i' => {
                        and |= b;
                        xor |= b
                    }
                    _ => return None,
                }
            }
            and | or << 5 | xor << 10
        }
        _ => return None,
    })
}
