//! Vector memory: MUBUF (`buffer_*`) through a V#, and FLAT / GLOBAL / SCRATCH.
//!
//! MUBUF address: V#.base + SOFFSET + the record offset of (index, offset), offset =
//! OFFSET(inst) + VGPR offset (offen), index = the idxen VGPR (+ lane id with
//! ADD_TID_ENABLE): `index·stride + offset`, or on GFX11 with SWIZZLE_ENABLE the swizzled
//! address (`BufferDesc::byte_offset`: elements of 4/8/16 bytes interleaved across
//! INDEX_STRIDE indices), computed per byte of the access, so a dword that starts a new
//! element goes to that element's place; a GFX9/GFX10.3 swizzled V# is `Unsupported`
//! (their element sizes are not modelled). The range check
//! (`BufferDesc::in_range`) looks at index and the offset without SOFFSET, per dword;
//! out-of-range dwords load 0 and are not stored, atomics out of range do nothing and
//! return 0. GLOBAL: SADDR (64-bit SGPRs) + 32-bit VADDR, or 64-bit VADDR with SADDR
//! `off`, + signed offset. FLAT: 64-bit VADDR; inside the shared aperture it is LDS,
//! inside the private aperture scratch, else global memory. SCRATCH: per-lane private
//! memory of the wave (`scratch_bytes` per lane), address = SADDR or VADDR + offset; an
//! access outside it is a fault.
//!
//! Counters: loads and returning atomics pend on vmcnt; stores and non-returning atomics
//! on vscnt (GFX10+) or vmcnt (GFX9); FLAT also on lgkmcnt (out of order), since it may
//! touch LDS. The data/address registers are the pending op's sources for the WAR check.
//! Typed loads/stores (`*_format_*`, `tbuffer_*`) convert through `bufformat`; d16 forms
//! fill or store one half of the VGPR; D16 typed forms (`*_format_d16_*`, GFX11
//! `*_d16_format_*`) pack two 16-bit components per dword as MIMG D16 does (`image.rs`:
//! floats rounded to f16 to nearest even, integers' low halves; stores widen first). Not
//! modelled: `lds` direct loads, tfe/lwe, d16 `tbuffer_*`, `*_addtid_*`, csub atomics.

use crate::atomic;
use crate::dispatch::{PRIVATE_BASE, SHARED_BASE};
use crate::error::{Error, Result};
use crate::memory::{BufferDesc, Swizzle};
use crate::track::Counter;
use crate::wave::{Env, Wave};
use gcnc::isa::format::mem;
use gcnc::isa::{EncDesc, Field, Format, Gen, Inst, Operand};

fn vreg(o: Option<Operand>) -> Option<(u16, u8)> {
    match o {
        Some(Operand::Reg(r)) if r.base.is_vgpr() => Some((r.base.0 - 256, r.count)),
        _ => None,
    }
}

/// Bytes and sign extension of a load/store suffix.
fn size_of(s: &str) -> Option<(u32, bool)> {
    Some(match s {
        "dword" | "b32" => (4, false),
        "dwordx2" | "b64" => (8, false),
        "dwordx3" | "b96" => (12, false),
        "dwordx4" | "b128" => (16, false),
        "ubyte" | "u8" | "byte" | "b8" => (1, false),
        "sbyte" | "i8" => (1, true),
        "ushort" | "u16" | "short" | "b16" => (2, false),
        "sshort" | "i16" => (2, true),
        _ => return None,
    })
}

enum Kind {
    Load(u32, bool),
    Store(u32),
    Atomic(atomic::Atomic),
    /// Typed (format) load / store of this many components.
    /// Typed load of this many components; `true`: D16 (packed two per dword).
    LoadFmt(u32, bool),
    /// Typed store of this many components; `true`: D16.
    StoreFmt(u32, bool),
    /// d16: a 8/16-bit load into one half of the VGPR (the other half kept), or a store
    /// of the high half.
    LoadD16 {
        bytes: u32,
        sext: bool,
        hi: bool,
    },
    StoreD16Hi(u32),
}

/// The d16 element of a mnemonic tail: (bytes, sign extended).
pub fn d16_elem(rest: &str) -> Option<(u32, bool)> {
    let has = |w: &str| rest.split('_').any(|p| p == w);
    if has("i8") || has("sbyte") {
        Some((1, true))
    } else if has("u8") || has("ubyte") || has("b8") || has("byte") {
        Some((1, false))
    } else if has("u16") || has("b16") || has("short") || has("i16") {
        Some((2, false))
    } else {
        None
    }
}

fn fmt_comps(s: &str) -> Option<u32> {
    Some(match s {
        "x" => 1,
        "xy" => 2,
        "xyz" => 3,
        "xyzw" => 4,
        _ => return None,
    })
}

fn classify(rest: &str) -> Option<Kind> {
    if rest.contains("d16") && !rest.contains("format") {
        let hi = rest.contains("_hi");
        let (bytes, sext) = d16_elem(rest)?;
        return if rest.starts_with("load") {
            Some(Kind::LoadD16 { bytes, sext, hi })
        } else if rest.starts_with("store") && hi {
            Some(Kind::StoreD16Hi(bytes))
        } else {
            None
        };
    }
    // D16 typed forms: `load_format_d16_x` (GFX9/10), `load_d16_format_x` (GFX11)
    for (p, load) in [
        ("load_format_d16_", true),
        ("load_d16_format_", true),
        ("store_format_d16_", false),
        ("store_d16_format_", false),
    ] {
        if let Some(c) = rest.strip_prefix(p) {
            return fmt_comps(c).map(|n| {
                if load {
                    Kind::LoadFmt(n, true)
                } else {
                    Kind::StoreFmt(n, true)
                }
            });
        }
    }
    if let Some(c) = rest.strip_prefix("load_format_") {
        return fmt_comps(c).map(|n| Kind::LoadFmt(n, false));
    }
    if let Some(c) = rest.strip_prefix("store_format_") {
        return fmt_comps(c).map(|n| Kind::StoreFmt(n, false));
    }
    if let Some(s) = rest.strip_prefix("load_") {
        return size_of(s).map(|(n, x)| Kind::Load(n, x));
    }
    if let Some(s) = rest.strip_prefix("store_") {
        return size_of(s).map(|(n, _)| Kind::Store(n));
    }
    if let Some(s) = rest.strip_prefix("atomic_") {
        return atomic::parse(s).map(Kind::Atomic);
    }
    None
}

/// A buffer access's range-check and addressing inputs: the V#, the record index, the
/// byte offset and SOFFSET.
type RangeCheck = (BufferDesc, u32, u64, u64);

/// Where one lane's access goes.
#[derive(Clone, Copy)]
enum Place {
    Mem(u64),
    Lds(u32),
    Scratch(u64),
    /// Out of the buffer's range: loads 0, stores dropped.
    Oob,
}

pub fn exec(w: &mut Wave, inst: &Inst, d: &EncDesc, env: &mut Env) -> Result<()> {
    let name = inst.op.name();
    if matches!(
        name,
        "buffer_gl0_inv" | "buffer_gl1_inv" | "buffer_wbinvl1" | "buffer_wbinvl1_vol"
    ) {
        // cache maintenance: the emulator's memory is coherent, nothing to do
        return Ok(());
    }
    let (prefix, rest) = name.split_once('_').unwrap_or((name, ""));
    let kind = classify(rest).ok_or_else(|| Error::unimpl(name))?;
    let m = inst.mods.mem;
    if m.lds || m.tfe || m.lwe || (name.starts_with("tbuffer") && name.contains("d16")) {
        return Err(Error::unimpl(format!("{name} (lds/tfe/d16 tbuffer forms)")));
    }
    if d.format != Format::Scratch
        && matches!(
            kind,
            Kind::Store(_) | Kind::StoreFmt(..) | Kind::StoreD16Hi(_) | Kind::Atomic(_)
        )
    {
        w.check_helpers(name)?;
    }
    let lay = mem::layout(inst, d);
    let get = |f: Field| mem::get(inst, &lay, f);
    let vaddr = vreg(get(Field::Vaddr));
    let vdata = vreg(get(Field::Vdata));
    let vdst = vreg(get(Field::Vdst));
    let exec = w.regs.exec();
    if env.checks.uninit {
        for (n, c) in [vaddr, vdata].into_iter().flatten() {
            for k in 0..c as u16 {
                w.regs.check_v(n + k, exec)?;
            }
        }
    }
    let lanes = w.lanes();
    // per-lane placement of the first byte, plus the range-check closure for buffers
    let mut places: Vec<Option<(Place, Option<RangeCheck>)>> = vec![None; lanes as usize];
    let mut sregs: Vec<(u16, u16)> = Vec::new();
    let mut fmt_code = m.format as u32;
    match d.format {
        Format::Mubuf | Format::Mtbuf => {
            let Some(Operand::Reg(rs)) = get(Field::Srsrc) else {
                return Err(Error::unsupported("buffer resource operand"));
            };
            sregs.push((rs.base.0, 4));
            let mut v = [0u32; 4];
            for (k, x) in v.iter_mut().enumerate() {
                *x = w.regs.s(rs.base.0 + k as u16)?;
            }
            let desc = BufferDesc::decode(w.t.gen, v);
            if desc.swizzle == Swizzle::Legacy {
                return Err(Error::unsupported(format!(
                    "{name} through a swizzled V# on {} (swizzled addressing is modelled on \
                     GFX11 only)",
                    w.t.gen
                )));
            }
            if d.format == Format::Mubuf {
                fmt_code = match w.t.gen {
                    Gen::Gfx9 => ((v[3] >> 15) & 0xf) | ((v[3] >> 12) & 7) << 4,
                    Gen::Gfx10 => (v[3] >> 12) & 0x7f,
                    Gen::Gfx11 => (v[3] >> 12) & 0x3f,
                };
            }
            let soff = match get(Field::Soffset) {
                Some(Operand::Off) | None => 0,
                Some(o) => {
                    if let Operand::Reg(r) = o {
                        sregs.push((r.base.0, 1));
                    }
                    w.s_read(&o, 1, false, false)?
                }
            };
            for lane in 0..lanes {
                if exec >> lane & 1 == 0 {
                    continue;
                }
                let mut k = 0u16;
                let mut index = 0u32;
                let mut voff = 0u32;
                if let Some((n, _)) = vaddr {
                    if m.idxen {
                        index = w.regs.v(n, lane);
                        k += 1;
                    }
                    if m.offen {
                        voff = w.regs.v(n + k, lane);
                    }
                }
                if desc.add_tid {
                    index = index.wrapping_add(lane);
                }
                let off = voff as u64 + m.offset as u64;
                let addr = desc
                    .base
                    .wrapping_add(soff)
                    .wrapping_add(desc.byte_offset(index, off));
                places[lane as usize] = Some((Place::Mem(addr), Some((desc, index, off, soff))));
            }
        }
        Format::Global | Format::Flat | Format::Scratch => {
            if d.format == Format::Scratch {
                w.check_flat_scratch()?;
            }
            let saddr = get(Field::Saddr).filter(|o| *o != Operand::Off);
            let sbase = match saddr {
                Some(Operand::Reg(r)) => {
                    sregs.push((r.base.0, r.count as u16));
                    let lo = w.regs.s(r.base.0)? as u64;
                    let hi = if r.count >= 2 {
                        w.regs.s(r.base.0 + 1)? as u64
                    } else {
                        0
                    };
                    Some(lo | hi << 32)
                }
                _ => None,
            };
            for lane in 0..lanes {
                if exec >> lane & 1 == 0 {
                    continue;
                }
                let vlo = vaddr.map(|(n, _)| w.regs.v(n, lane) as u64).unwrap_or(0);
                let vhi = vaddr
                    .filter(|&(_, c)| c >= 2)
                    .map(|(n, _)| w.regs.v(n + 1, lane) as u64)
                    .unwrap_or(0);
                let off = m.offset as i64;
                let p = match d.format {
                    Format::Scratch => {
                        let a = sbase.unwrap_or(0) as u32 as u64 + vlo;
                        Place::Scratch((a as i64 + off) as u64)
                    }
                    _ => {
                        let a = match sbase {
                            Some(b) => b.wrapping_add(vlo),
                            None => vlo | vhi << 32,
                        };
                        let a = (a as i64).wrapping_add(off) as u64;
                        if d.format == Format::Flat
                            && (SHARED_BASE..SHARED_BASE + (1 << 32)).contains(&a)
                        {
                            Place::Lds((a - SHARED_BASE) as u32)
                        } else if d.format == Format::Flat
                            && (PRIVATE_BASE..PRIVATE_BASE + (1 << 32)).contains(&a)
                        {
                            Place::Scratch(a - PRIVATE_BASE)
                        } else {
                            Place::Mem(a)
                        }
                    }
                };
                places[lane as usize] = Some((p, None));
            }
        }
        _ => return Err(Error::unimpl(name)),
    }
    // per-dword placement (range check per dword for buffers)
    let byte_place = |p: Place, chk: &Option<RangeCheck>, b: u64| -> Place {
        match (p, chk) {
            (_, Some((desc, index, off, _))) if !desc.in_range(*index, off + b, m.idxen) => {
                Place::Oob
            }
            // a buffer's byte: its own place in the record (swizzling is not linear)
            (Place::Mem(_), Some((desc, index, off, soff))) => Place::Mem(
                desc.base
                    .wrapping_add(*soff)
                    .wrapping_add(desc.byte_offset(*index, off + b)),
            ),
            (Place::Mem(a), None) => Place::Mem(a + b),
            (Place::Lds(a), _) => Place::Lds(a + b as u32),
            (Place::Scratch(a), _) => Place::Scratch(a + b),
            (Place::Oob, _) => Place::Oob,
        }
    };
    let dword_place = |p: Place, chk: &Option<RangeCheck>, k: u64| byte_place(p, chk, 4 * k);
    let mut results: Vec<(u32, Vec<u32>)> = Vec::new();
    let returns;
    match kind {
        Kind::Load(bytes, sext) => {
            returns = true;
            for lane in 0..lanes {
                let Some((p, chk)) = places[lane as usize] else {
                    continue;
                };
                let mut dws = Vec::new();
                if bytes >= 4 {
                    for k in 0..(bytes / 4) as u64 {
                        dws.push(load(w, env, dword_place(p, &chk, k), lane, 4)?);
                    }
                } else {
                    let v = load(w, env, dword_place(p, &chk, 0), lane, bytes)?;
                    let v = if sext {
                        ((v << (32 - 8 * bytes)) as i32 >> (32 - 8 * bytes)) as u32
                    } else {
                        v
                    };
                    dws.push(v);
                }
                results.push((lane, dws));
            }
        }
        Kind::LoadFmt(n, d16) => {
            returns = true;
            let f = crate::bufformat::decode(w.t.gen, fmt_code)?;
            for lane in 0..lanes {
                let Some((p, chk)) = places[lane as usize] else {
                    continue;
                };
                let mut dws = Vec::new();
                for k in 0..n {
                    if k < f.comps() {
                        let (at, bytes, _) = f.place(k);
                        let raw = load(w, env, byte_place(p, &chk, at as u64), lane, bytes)?;
                        dws.push(f.extract(k, raw));
                    } else {
                        dws.push(f.missing(k));
                    }
                }
                if d16 {
                    dws = crate::image::d16_pack(f.num, &dws);
                }
                results.push((lane, dws));
            }
        }
        Kind::StoreFmt(n, d16) => {
            returns = false;
            let f = crate::bufformat::decode(w.t.gen, fmt_code)?;
            if f.packed() {
                return Err(Error::unsupported("typed stores of packed buffer formats"));
            }
            let (dn, _) = vdata.ok_or_else(|| Error::unsupported("store without data"))?;
            for lane in 0..lanes {
                let Some((p, chk)) = places[lane as usize] else {
                    continue;
                };
                for k in 0..n.min(f.comps()) {
                    let v = if d16 {
                        // two 16-bit components per dword, the first in the low half
                        let h = w.regs.v(dn + (k / 2) as u16, lane) >> (16 * (k % 2)) & 0xffff;
                        crate::image::d16_widen(f.num, h)
                    } else {
                        w.regs.v(dn + k as u16, lane)
                    };
                    let raw = f.from_reg(k, v);
                    let (at, bytes, _) = f.place(k);
                    store(w, env, byte_place(p, &chk, at as u64), lane, bytes, raw)?;
                }
            }
        }
        Kind::LoadD16 { bytes, sext, hi } => {
            returns = true;
            let (dn, _) = vdst.ok_or_else(|| Error::unsupported("d16 load destination"))?;
            for lane in 0..lanes {
                let Some((p, chk)) = places[lane as usize] else {
                    continue;
                };
                let mut v = load(w, env, dword_place(p, &chk, 0), lane, bytes)?;
                if sext && bytes == 1 {
                    v = v as u8 as i8 as i16 as u16 as u32;
                }
                let old = w.regs.v(dn, lane);
                let new = if hi {
                    (old & 0xffff) | (v & 0xffff) << 16
                } else {
                    (old & 0xffff_0000) | (v & 0xffff)
                };
                results.push((lane, vec![new]));
            }
        }
        Kind::StoreD16Hi(bytes) => {
            returns = false;
            let (n, _) = vdata.ok_or_else(|| Error::unsupported("store without data"))?;
            for lane in 0..lanes {
                let Some((p, chk)) = places[lane as usize] else {
                    continue;
                };
                let v = w.regs.v(n, lane) >> 16;
                store(w, env, dword_place(p, &chk, 0), lane, bytes, v)?;
            }
        }
        Kind::Store(bytes) => {
            returns = false;
            let (n, _) = vdata.ok_or_else(|| Error::unsupported("store without data"))?;
            for lane in 0..lanes {
                let Some((p, chk)) = places[lane as usize] else {
                    continue;
                };
                if bytes >= 4 {
                    for k in 0..(bytes / 4) as u64 {
                        let v = w.regs.v(n + k as u16, lane);
                        store(w, env, dword_place(p, &chk, k), lane, 4, v)?;
                    }
                } else {
                    let v = w.regs.v(n, lane);
                    store(w, env, dword_place(p, &chk, 0), lane, bytes, v)?;
                }
            }
        }
        Kind::Atomic(at) => {
            returns = inst.mods.glc;
            let (n, c) = vdata.ok_or_else(|| Error::unsupported("atomic without data"))?;
            let width = if at.wide { 2 } else { 1 };
            for lane in 0..lanes {
                let Some((p, chk)) = places[lane as usize] else {
                    continue;
                };
                let p = dword_place(p, &chk, 0);
                let rd = |k: u16| w.regs.v(n + k, lane) as u64;
                let data = if width == 2 {
                    rd(0) | rd(1) << 32
                } else {
                    rd(0)
                };
                let second = if c > width as u8 {
                    if width == 2 {
                        rd(2) | rd(3) << 32
                    } else {
                        rd(1)
                    }
                } else {
                    0
                };
                let mut old = load(w, env, p, lane, 4)? as u64;
                if width == 2 {
                    let hi = load(w, env, dword_place(p, &None, 1), lane, 4)? as u64;
                    old |= hi << 32;
                }
                if !matches!(p, Place::Oob) {
                    let new = at.apply(old, data, second);
                    store(w, env, p, lane, 4, new as u32)?;
                    if width == 2 {
                        store(
                            w,
                            env,
                            dword_place(p, &None, 1),
                            lane,
                            4,
                            (new >> 32) as u32,
                        )?;
                    }
                }
                results.push((lane, vec![old as u32, (old >> 32) as u32]));
            }
        }
    }
    // destination: VDST, or for returning MUBUF atomics the VDATA registers
    let dst = if returns {
        vdst.or(if d.format == Format::Mubuf {
            vdata
        } else {
            None
        })
    } else {
        None
    };
    let mut dsts = Vec::new();
    if let Some((n, c)) = dst {
        let c = match kind {
            Kind::Atomic(at) => {
                if at.wide {
                    2
                } else {
                    1
                }
            }
            _ => c,
        };
        for (lane, dws) in results {
            for k in 0..c as usize {
                w.regs
                    .set_v(n + k as u16, lane, dws.get(k).copied().unwrap_or(0))?;
            }
        }
        dsts.push((n + 256, c as u16));
    }
    let mut srcs: Vec<(u16, u16)> = [vaddr, vdata]
        .into_iter()
        .flatten()
        .map(|(n, c)| (n + 256, c as u16))
        .collect();
    srcs.extend(sregs);
    let store_like = !returns;
    let mut counters = vec![if store_like && w.t.gen != Gen::Gfx9 {
        (Counter::Vs, false)
    } else {
        (Counter::Vm, false)
    }];
    if d.format == Format::Flat {
        counters.push((Counter::Lgkm, true));
    }
    let _ = prefix;
    w.track
        .issue(&counters, w.cur_pc, w.cur_text.clone(), dsts, srcs);
    Ok(())
}

fn load(w: &mut Wave, env: &mut Env, p: Place, lane: u32, bytes: u32) -> Result<u32> {
    let mut b = [0u8; 4];
    match p {
        Place::Oob => return Ok(0),
        Place::Mem(a) => env.mem.read(a, &mut b[..bytes as usize])?,
        Place::Lds(a) => {
            if crate::ds::lds_in_range(env, a, bytes, false)? {
                b[..bytes as usize]
                    .copy_from_slice(&env.lds.bytes[a as usize..(a + bytes) as usize]);
            }
        }
        Place::Scratch(a) => {
            for k in 0..bytes as u64 {
                b[k as usize] = w.scratch_byte(lane, a + k)?;
            }
        }
    }
    Ok(u32::from_le_bytes(b))
}

fn store(w: &mut Wave, env: &mut Env, p: Place, lane: u32, bytes: u32, v: u32) -> Result<()> {
    let b = v.to_le_bytes();
    match p {
        Place::Oob => {}
        Place::Mem(a) => env.mem.write(a, &b[..bytes as usize])?,
        Place::Lds(a) => {
            if crate::ds::lds_in_range(env, a, bytes, true)? {
                env.lds.bytes[a as usize..(a + bytes) as usize]
                    .copy_from_slice(&b[..bytes as usize]);
            }
        }
        Place::Scratch(a) => {
            for k in 0..bytes as u64 {
                w.set_scratch_byte(lane, a + k, b[k as usize])?;
            }
        }
    }
    Ok(())
}
