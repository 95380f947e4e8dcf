//! FLAT, GLOBAL and SCRATCH, 64 bits. Word 0: `110111 op[24:18]` + per generation
//! - GFX9: slc[17] glc[16] seg[15:14] lds[13] offset[12:0];
//! - GFX10: slc[17] glc[16] seg[15:14] lds[13] dlc[12] offset[11:0];
//! - GFX11: seg[17:16] slc[15] glc[14] dlc[13] offset[12:0];
//!
//! word 1: `vdst[31:24] sve[23] (GFX11 scratch) saddr[22:16] data[15:8] vaddr[7:0]`.
//! seg: 0 flat, 1 scratch, 2 global. Offsets: flat unsigned (GFX9/GFX11 12 bits, GFX10
//! 11), global/scratch signed (GFX9/GFX11 13 bits, GFX10 12). `saddr` off is 0x7f on GFX9
//! (flat: 0), null (0x7d / 0x7c) on GFX10/GFX11; GFX10 scratch with both addresses off
//! uses 0x7f. GLOBAL: vaddr is a 64-bit address with saddr off, else a 32-bit offset.
//! SCRATCH: GFX9/GFX10 use exactly one of vaddr/saddr (GFX10 also neither); GFX11 any
//! combination, with sve set when vaddr is used. A returning atomic has a vdst only with
//! glc (LLVM ignores the vdst field otherwise).

use super::mem::{flag, layout, scode, sreg, vnum, vreg, want_s, want_v};
use super::sop2::lookup;
use super::{word, Dec, Enc};
use crate::isa::error::{Error, Result};
use crate::isa::inst::Inst;
use crate::isa::operand::Operand;
use crate::isa::tables::{EncDesc, Field, Format, MemFlags, OpDesc};
use crate::isa::target::{Gen, Target};

pub const PREFIX: u32 = 0b110111 << 26;

pub fn is_flat(w0: u32) -> bool {
    w0 & 0xfc00_0000 == PREFIX
}

struct Bits {
    lds: Option<u32>,
    seg: u32,
    glc: u32,
    slc: u32,
    dlc: Option<u32>,
    off_bits: u32,
}

fn bits(gen: Gen) -> Bits {
    match gen {
        Gen::Gfx9 => Bits {
            lds: Some(13),
            seg: 14,
            glc: 16,
            slc: 17,
            dlc: None,
            off_bits: 13,
        },
        Gen::Gfx10 => Bits {
            lds: Some(13),
            seg: 14,
            glc: 16,
            slc: 17,
            dlc: Some(12),
            off_bits: 12,
        },
        Gen::Gfx11 => Bits {
            lds: None,
            seg: 16,
            glc: 14,
            slc: 15,
            dlc: Some(13),
            off_bits: 13,
        },
    }
}

fn seg_of(f: Format) -> u32 {
    match f {
        Format::Flat => 0,
        Format::Scratch => 1,
        _ => 2,
    }
}

/// The format of a FLAT-encoded word (by its segment field).
pub fn format_of(gen: Gen, w0: u32) -> Option<Format> {
    match (w0 >> bits(gen).seg) & 3 {
        0 => Some(Format::Flat),
        1 => Some(Format::Scratch),
        2 => Some(Format::Global),
        _ => None,
    }
}

fn offset_range(gen: Gen, f: Format) -> (i32, i32) {
    let b = bits(gen).off_bits;
    if f == Format::Flat {
        // LLVM's assembler takes one bit less; its disassembler decodes the whole field
        (0, (1 << b) - 1)
    } else {
        (-(1 << (b - 1)), (1 << (b - 1)) - 1)
    }
}

fn saddr_off(gen: Gen, f: Format) -> u32 {
    match (gen, f) {
        (Gen::Gfx9, Format::Flat) => 0,
        (Gen::Gfx9, _) => 0x7f,
        (Gen::Gfx10, _) => 0x7d,
        _ => 0x7c,
    }
}

/// Whether a register code in the saddr field of GLOBAL/SCRATCH is one LLVM refuses: GLOBAL
/// takes a 64-bit scalar pair (LLVM ignores the low bit; m0 and null are not pairs, nor is
/// GFX11's exec_hi), SCRATCH any 32-bit scalar register but GFX11's exec_hi (LLVM's
/// `SReg_32_XEXEC_HI`; ACO writes 0x7f for "no saddr" in GFX11 scratch spills, which
/// llvm-mc-19 marks invalid).
fn saddr_code_invalid(gen: Gen, f: Format, code: u32) -> bool {
    let m0 = crate::isa::reg::encode_code(gen, crate::isa::reg::PhysReg::M0) as u32;
    match (f, gen) {
        // 0x7d prints as `null` on GFX9 (0x7f is off)
        (Format::Global, Gen::Gfx9) => code == m0,
        (Format::Global, Gen::Gfx10) => code == m0 || code == 0x7f,
        (Format::Global, Gen::Gfx11) => code & !1 == m0 & !1 || code == 0x7f,
        (Format::Scratch, Gen::Gfx11) => code == 0x7f,
        _ => false,
    }
}

pub fn check(inst: &Inst, d: &EncDesc, t: Target, lay: &[&OpDesc]) -> Result<()> {
    let saddr = super::mem::get(inst, lay, Field::Saddr);
    let vaddr = super::mem::get(inst, lay, Field::Vaddr);
    for (od, o) in lay.iter().zip(&inst.operands) {
        match od.field {
            Field::Vdst | Field::Vdata => want_v(o, od.size, "data")?,
            Field::Vaddr => match d.format {
                Format::Flat => want_v(o, 2, "vaddr")?,
                Format::Global => {
                    want_v(o, if saddr == Some(Operand::Off) { 2 } else { 1 }, "vaddr")?
                }
                _ if *o == Operand::Off => {}
                _ => want_v(o, 1, "vaddr")?,
            },
            Field::Saddr if *o == Operand::Off => {}
            Field::Saddr => {
                want_s(o, od.size, od.size as u16, "saddr")?;
                if saddr_code_invalid(t.gen, d.format, scode(t.gen, o)) {
                    return Err(Error::bad(format!("saddr {o:?} (LLVM refuses it)")));
                }
            }
            _ => return Err(Error::bad("operand")),
        }
    }
    if d.format == Format::Scratch {
        let (v, s) = (vaddr != Some(Operand::Off), saddr != Some(Operand::Off));
        let ok = match t.gen {
            Gen::Gfx9 => v != s,
            Gen::Gfx10 => !(v && s),
            Gen::Gfx11 => true,
        };
        flag(ok, "this address combination", d)?;
    }
    let m = &inst.mods.mem;
    let (lo, hi) = offset_range(t.gen, d.format);
    if !(lo..=hi).contains(&m.offset) {
        return Err(Error::range(format!(
            "offset {} not in {lo}..={hi}",
            m.offset
        )));
    }
    flag(!inst.mods.dlc || t.gen != Gen::Gfx9, "dlc", d)?;
    flag(!m.lds || d.mem.contains(MemFlags::LDS), "lds", d)?;
    let rest = super::mem::MemMods {
        offset: m.offset,
        slc: m.slc,
        lds: m.lds,
        ..Default::default()
    };
    flag(*m == rest, "these modifiers", d)
}

pub fn encode(cx: &mut Enc, d: &EncDesc, inst: &Inst) -> Result<()> {
    let gen = cx.t.gen;
    let b = bits(gen);
    let m = &inst.mods.mem;
    let mut w0 = PREFIX | (d.op as u32) << 18 | seg_of(d.format) << b.seg;
    w0 |= (inst.mods.glc as u32) << b.glc | (m.slc as u32) << b.slc;
    if let Some(x) = b.dlc {
        w0 |= (inst.mods.dlc as u32) << x;
    }
    if let Some(x) = b.lds {
        w0 |= (m.lds as u32) << x;
    }
    w0 |= m.offset as u32 & ((1 << b.off_bits) - 1);
    let lay = layout(inst, d);
    let mut w1 = 0;
    let mut saddr = saddr_off(gen, d.format);
    let mut has_vaddr = false;
    for (od, o) in lay.iter().zip(&inst.operands) {
        match od.field {
            Field::Vdst => w1 |= vnum(o) << 24,
            Field::Vdata => w1 |= vnum(o) << 8,
            Field::Vaddr => {
                has_vaddr = *o != Operand::Off;
                w1 |= vnum(o)
            }
            _ if *o == Operand::Off => {}
            _ => saddr = scode(gen, o),
        }
    }
    if d.format == Format::Scratch && gen == Gen::Gfx10 && !has_vaddr && saddr == 0x7d {
        saddr = 0x7f;
    }
    if d.format == Format::Scratch && gen == Gen::Gfx11 && has_vaddr {
        w1 |= 1 << 23;
    }
    w1 |= saddr << 16;
    cx.words.push(w0);
    cx.words.push(w1);
    Ok(())
}

pub fn decode(cx: &Dec, w: &[u32]) -> Result<(Inst, usize)> {
    let (w0, w1) = (word(w, 0)?, word(w, 1)?);
    let gen = cx.gen();
    let b = bits(gen);
    let f = format_of(gen, w0).ok_or_else(|| Error::invalid("FLAT segment 3"))?;
    let d = lookup(cx, f, (w0 >> 18) & 0x7f)?;
    let mut inst = Inst::new(d.opcode, f, &[]);
    inst.mods.glc = (w0 >> b.glc) & 1 == 1;
    inst.mods.mem.slc = (w0 >> b.slc) & 1 == 1;
    inst.mods.dlc = b.dlc.is_some_and(|x| (w0 >> x) & 1 == 1);
    inst.mods.mem.lds = b.lds.is_some_and(|x| (w0 >> x) & 1 == 1);
    // bit 55: GFX11 scratch `sve`; LLVM rejects it on GFX10 and on GFX11 non-scratch
    let b55 = (w1 >> 23) & 1 == 1;
    if b55 && (gen == Gen::Gfx10 || (gen == Gen::Gfx11 && f != Format::Scratch)) {
        return Err(Error::invalid("FLAT bit 55 set"));
    }
    let raw = w0 & ((1 << b.off_bits) - 1);
    inst.mods.mem.offset = if f == Format::Flat {
        raw as i32
    } else {
        ((raw << (32 - b.off_bits)) as i32) >> (32 - b.off_bits)
    };
    let code = (w1 >> 16) & 0x7f;
    let saddr_is_off =
        code == saddr_off(gen, f) || (gen == Gen::Gfx10 && f == Format::Scratch && code == 0x7f);
    if (f == Format::Flat && !saddr_is_off) || (!saddr_is_off && saddr_code_invalid(gen, f, code)) {
        return Err(Error::invalid(format!("saddr code {code:#x}")));
    }
    let vaddr_used = match (f, gen) {
        (Format::Scratch, Gen::Gfx11) => (w1 >> 23) & 1 == 1,
        (Format::Scratch, Gen::Gfx10) => saddr_is_off && code != 0x7f,
        (Format::Scratch, _) => saddr_is_off,
        _ => true,
    };
    // the layout depends on glc (returning atomics): build it from a placeholder
    let probe = Inst {
        operands: Default::default(),
        ..inst.clone()
    };
    let lay = layout(&probe, d);
    let mut ops = Vec::new();
    for od in lay {
        ops.push(match od.field {
            Field::Vdst => vreg(w1 >> 24, od.size)?,
            Field::Vdata => vreg((w1 >> 8) & 0xff, od.size)?,
            Field::Vaddr if !vaddr_used => Operand::Off,
            Field::Vaddr => {
                let n = if f == Format::Flat || (f == Format::Global && saddr_is_off) {
                    2
                } else {
                    1
                };
                vreg(w1 & 0xff, n)?
            }
            _ if saddr_is_off => Operand::Off,
            _ if gen == Gen::Gfx9 && code == 0x7d => Operand::Reg(crate::isa::reg::Reg {
                base: crate::isa::reg::PhysReg::NULL,
                count: od.size,
            }),
            _ => sreg(gen, code & !(od.size as u32 - 1), od.size)?,
        });
    }
    inst.operands = ops.into_iter().collect();
    super::mem::check(&inst, d, cx.t).map_err(|e| Error::invalid(e.to_string()))?;
    Ok((inst, 2))
}

pub fn print_mods(inst: &Inst, _t: Target, s: &mut String) {
    let m = &inst.mods.mem;
    if m.offset != 0 {
        s.push_str(&format!(" offset:{}", m.offset));
    }
    if inst.mods.glc {
        s.push_str(" glc");
    }
    if m.slc {
        s.push_str(" slc");
    }
    if inst.mods.dlc {
        s.push_str(" dlc");
    }
    if m.lds {
        s.push_str(" lds");
    }
}
