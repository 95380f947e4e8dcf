//! Representative instances of the memory, export and interpolation encodings (used by
//! the LLVM oracle test and the round-trip test): each `variant` exercises other address
//! forms and modifiers (offsets, offen/idxen, saddr/off, glc/slc/dlc, tfe, gds, formats,
//! MIMG dims, NSA, a16, d16, export targets and compression).
#![allow(dead_code)]

use gcnc::isa::*;

fn v(n: u16, c: u8) -> Operand {
    Operand::Reg(Reg::v(n, c))
}
fn s(n: u16, c: u8) -> Operand {
    Operand::Reg(Reg::s(n, c))
}

pub fn instance(d: &EncDesc, t: Target, variant: u32) -> Option<Inst> {
    let gen = t.gen;
    let mut inst = Inst::new(d.opcode, d.format, &[]);
    let mut m = MemMods::default();
    let mut ops = Vec::new();
    let ex: Vec<&OpDesc> = d.explicit().collect();
    let gfx9 = gen == Gen::Gfx9;
    match d.format {
        Format::Ds => {
            for od in &ex {
                ops.push(match od.field {
                    Field::Vdst => v(1, od.size),
                    Field::Addr => v(10, 1),
                    Field::Data0 => v(20, od.size),
                    _ => v(30, od.size),
                });
            }
            if variant >= 1 {
                if d.mem.contains(MemFlags::SWIZZLE) {
                    m.offset = [0, 0x1224, 0x80e4, 0x041f][variant as usize];
                } else if d.mem.contains(MemFlags::OFFSET01) {
                    m.offset = 4 | (variant as i32 * 8) << 8;
                } else if d.mem.contains(MemFlags::OFFSET) {
                    m.offset = 0x1234 * variant as i32;
                }
            }
            m.gds = d.mem.contains(MemFlags::GDS_ONLY)
                || (variant == 2 && d.mem.contains(MemFlags::GDS));
        }
        Format::Mubuf if ex.is_empty() => {} // cache controls take no operands or flags
        Format::Mubuf | Format::Mtbuf => {
            let (offen, idxen) =
                [(false, false), (true, false), (true, true), (false, true)][variant as usize];
            m.offen = offen;
            m.idxen = idxen;
            m.offset = [4, 0, 4095, 16][variant as usize];
            // LLVM decodes tfe on stores but its assembler refuses it
            m.tfe = variant == 2 && d.mem.contains(MemFlags::TFE) && !d.mnemonic.contains("store");
            m.slc = variant == 2;
            m.lds = variant == 3 && d.mem.contains(MemFlags::LDS);
            inst.mods.glc = variant == 1 || (variant == 3 && d.mem.contains(MemFlags::RTN));
            inst.mods.dlc = variant == 2 && !gfx9;
            if d.format == Format::Mtbuf {
                m.format = match (variant, gfx9) {
                    (0, _) => 1,
                    (1, true) => 116,
                    (1, false) => 22,
                    _ => 4,
                };
            }
            for od in &ex {
                ops.push(match od.field {
                    Field::Vdst | Field::Vdata if m.lds => continue,
                    Field::Vdst | Field::Vdata => v(1, od.size + m.tfe as u8),
                    Field::Vaddr if !offen && !idxen => Operand::Off,
                    Field::Vaddr => v(10, offen as u8 + idxen as u8),
                    Field::Srsrc => s(8, 4),
                    _ if variant == 3 => Operand::Inline(128),
                    _ => s(2, 1),
                });
            }
        }
        Format::Flat | Format::Global | Format::Scratch => {
            let rtn = d.mem.contains(MemFlags::RTN);
            inst.mods.glc = variant == 1 || (rtn && variant != 2);
            m.slc = variant == 2;
            inst.mods.dlc = variant == 3 && !gfx9;
            m.offset = match (d.format, variant) {
                (Format::Flat, 1) => 16,
                (Format::Flat, _) => 0,
                (_, 0) => -8,
                (_, 1) => 256,
                _ => 0,
            };
            // address form: global saddr off / on; scratch vaddr only / saddr only / both
            let (use_v, use_s) = match (d.format, variant, gen) {
                (Format::Flat, _, _) => (true, false),
                (Format::Global, 0 | 2, _) => (true, false),
                (Format::Global, _, _) => (true, true),
                (_, 0 | 2, _) => (true, false),
                (_, 3, Gen::Gfx11) => (true, true),
                (_, 3, Gen::Gfx10) => (false, false),
                _ => (false, true),
            };
            for od in &ex {
                ops.push(match od.field {
                    Field::Vdst if rtn && !inst.mods.glc => continue,
                    Field::Vdst => v(1, od.size),
                    Field::Vdata => v(20, od.size),
                    Field::Vaddr if !use_v => Operand::Off,
                    Field::Vaddr => v(
                        10,
                        if d.format == Format::Flat || (d.format == Format::Global && !use_s) {
                            2
                        } else {
                            1
                        },
                    ),
                    _ if !use_s => Operand::Off,
                    _ => s(4, od.size),
                });
            }
        }
        Format::Mimg => {
            let rtn = d.mem.contains(MemFlags::RTN);
            m.dmask = if rtn {
                if d.mnemonic.contains("cmpswap") {
                    3
                } else {
                    1
                }
            } else if gcnc::isa::format::mimg::is_gather(gen, d) {
                1 << variant
            } else {
                [0xf, 0x1, 0x3, 0x7][variant as usize]
            };
            let mut nsa = false;
            if !gfx9 {
                m.dim = if d.mnemonic.contains("msaa") {
                    [6, 7, 6, 7][variant as usize]
                } else {
                    [1, 2, 0, 5][variant as usize]
                };
                m.a16 = variant == 2 && !rtn;
                nsa = variant == 1;
            } else {
                m.da = variant == 1;
                // GFX9's A16 is bit 15 of the first dword (GFX10+'s R128 position)
                m.a16 = variant == 2 && !rtn;
            }
            inst.mods.glc = rtn && variant != 3;
            m.slc = variant == 2;
            m.unorm = variant == 3;
            m.tfe = variant == 3 && !rtn;
            m.d16 = variant == 2
                && !rtn
                && !["get_resinfo", "pck", "get_lod"]
                    .iter()
                    .any(|x| d.mnemonic.contains(x));
            let probe = MemMods { ..m };
            let naddr = if gfx9 {
                ex.iter().find(|o| o.field == Field::Vaddr)?.size
            } else {
                d.addr?[m.a16 as usize][m.dim as usize]
            };
            for od in &ex {
                match od.field {
                    Field::Vdst | Field::Vdata => {
                        let n = gcnc::isa::format::mimg::data_size(gen, d, &probe);
                        ops.push(v(1, n))
                    }
                    Field::Vaddr if nsa && naddr > 1 => {
                        for i in 0..naddr as u16 {
                            ops.push(v(10 + 3 * i, 1));
                        }
                    }
                    Field::Vaddr => ops.push(v(10, naddr)),
                    Field::Srsrc => ops.push(s(8, od.size)),
                    _ => ops.push(s(16, 4)),
                }
            }
        }
        Format::Exp => {
            let gfx11 = gen == Gen::Gfx11;
            let (tgt, slots, done): (u32, [Option<u16>; 4], bool) = match variant {
                0 => (0, [Some(1), Some(2), Some(3), Some(4)], true),
                1 => (12, [Some(1), None, Some(2), None], false),
                2 if !gfx11 => (1, [Some(1), Some(1), Some(2), Some(2)], false),
                2 => (8, [Some(1), None, None, None], true),
                _ if gfx11 => (13, [None, Some(5), None, None], false),
                _ => (33, [None, Some(5), None, None], true),
            };
            ops.push(Operand::Imm(tgt));
            for x in slots {
                ops.push(x.map_or(Operand::Off, |n| v(n, 1)));
            }
            m.done = done;
            m.vm = variant == 0 && !gfx11;
            m.compr = variant == 2 && !gfx11;
            m.row_en = variant == 3 && gfx11;
        }
        Format::Vintrp | Format::Ldsdir => {
            for od in &ex {
                ops.push(match od.field {
                    Field::Vdst => v(1 + variant as u16, 1),
                    Field::Src0 => v(2, 1),
                    Field::Param => Operand::Imm(variant % 3),
                    _ => Operand::Imm(13 + variant * 17),
                });
            }
            if d.format == Format::Ldsdir {
                m.wait = variant as u8 * 3;
            }
        }
        Format::Vinterp => {
            for (i, _) in ex.iter().enumerate() {
                ops.push(v(1 + i as u16 + variant as u16, 1));
            }
            inst.mods.neg = [0, 1, 6, 7][variant as usize];
            inst.mods.clamp = variant == 1;
            inst.mods.op_sel = if variant == 2 && d.mnemonic.contains("f16") {
                5
            } else {
                0
            };
            m.wait = variant as u8 * 2;
        }
        _ => return None,
    }
    inst.operands = ops.into_iter().collect();
    inst.mods.mem = m;
    inst.verify(t).ok()?;
    Some(inst)
}

/// A representative instance with randomised registers, offsets and cache bits (seeded;
/// falls back to the plain instance when a random choice does not verify).
pub fn random(d: &EncDesc, t: Target, seed: u64) -> Option<Inst> {
    let mut x = seed | 1;
    let mut next = move |n: u64| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x % n.max(1)
    };
    let base = instance(d, t, next(4) as u32)?;
    let mut inst = base.clone();
    for o in inst.operands.iter_mut() {
        if let Operand::Reg(r) = o {
            if r.base.is_vgpr() {
                *r = Reg::v(next(257 - r.count as u64) as u16, r.count);
            } else if r.base.0 < 100 {
                let align = if r.count >= 4 { 4 } else { r.count as u64 };
                let limit = if t.gen == Gen::Gfx9 { 100 } else { 104 };
                *r = Reg::s(
                    (next((limit - r.count as u64) / align) * align) as u16,
                    r.count,
                );
            }
        }
    }
    let m = &mut inst.mods.mem;
    match d.format {
        Format::Ds if m.offset != 0 && !d.mem.contains(MemFlags::SWIZZLE) => {
            m.offset = next(0x10000) as i32
        }
        Format::Mubuf | Format::Mtbuf if !d.operands.is_empty() => {
            m.offset = next(4096) as i32;
            m.slc = next(2) == 1;
        }
        Format::Global | Format::Scratch => m.offset = next(4096) as i32 - 2048,
        Format::Exp => m.done = next(2) == 1,
        Format::Ldsdir => m.wait = next(16) as u8,
        Format::Vinterp => m.wait = next(8) as u8,
        _ => {}
    }
    if d.format == Format::Mtbuf {
        let f = next(128) as u8;
        if gcnc::isa::tables::BUF_FORMATS[t.gen as usize][f as usize] != "!" {
            m.format = f;
        }
    }
    Some(if inst.verify(t).is_ok() { inst } else { base })
}
